#!/usr/bin/env bash
# Checks that a change to the reader leaves every report as it was:
#
#   bench/same-report.sh BEFORE [FILE...]
#
# BEFORE is a checkout of the build to compare with (e.g. `git worktree add before main`), with its
# jar built. Runs `vtscope analyze --format json` of BEFORE and of this checkout on each FILE
# (default: every sample recording and the recordings in bench/work/) and prints the files whose
# reports differ; exits 1 if any does.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
before=$(cd "${1:?a checkout of the build to compare with}" && pwd -P)
shift
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$root"/samples/jdk21/*.jfr "$root"/samples/jdk25/*.jfr)
  for f in "$root"/bench/work/*.jfr "$root"/bench/work/eight/*.jfr; do
    [ -s "$f" ] && files+=("$f")
  done
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
differ=0
for f in "${files[@]}"; do
  # the same absolute path for both, as the report names it
  f=$(cd "$(dirname "$f")" && pwd -P)/$(basename "$f")
  a=0 b=0
  "$before/vtscope" analyze -q --format json "$f" >"$out/before.json" 2>"$out/before.err" || a=$?
  "$root/vtscope" analyze -q --format json "$f" >"$out/after.json" 2>"$out/after.err" || b=$?
  if [ "$a" != "$b" ] || ! cmp -s "$out/before.json" "$out/after.json" || ! cmp -s "$out/before.err" "$out/after.err"; then
    echo "differs: $f (exit $a, then $b)"
    diff "$out/before.json" "$out/after.json" | head -n 10 || true
    differ=1
  fi
done
echo "${#files[@]} recordings compared"
exit "$differ"
