#!/usr/bin/env bash
# Verifies every library claim in knowledge.json against the bytecode of the real jars:
#
#   tools/verify-library-fixes.sh           prints the checks and verdicts
#   tools/verify-library-fixes.sh --write   also writes them to docs/evidence/library-fixes.txt
#
# For each entry of "libraries" it downloads from Maven Central (with mvn) the releases the claim
# rests on (lastAffected and fixedIn, or checkedUpTo) into target/library-jars/, and asks vtscope's
# scan for the calls of each pin's method (./vtscope scan JAR --calls-of CLASS.METHOD, the same
# monitor data flow the scan's findings come from): a "fixed in F" claim holds when lastAffected
# holds a monitor around the pin's blocking call and F no longer does; a "no fix" claim holds when
# checkedUpTo still does. Exits 1 when a claim fails. Needs what ./vtscope needs (a JDK 21+, Maven
# to build it), python3 and mvn.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
write=""
case "${1:-}" in
  --write) write=yes ;;
  "") ;;
  *) echo "usage: tools/verify-library-fixes.sh [--write]" >&2; exit 2 ;;
esac
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "verify-library-fixes: needs python3" >&2; exit 9; }

knowledge="$root/cli/src/main/resources/dev/vtscope/advice/knowledge.json"
jars="$root/target/library-jars"
mkdir -p "$jars"

missing=$("$python" "$root/tools/library_fixes.py" plan "$knowledge" "$jars")
if [ "$missing" != 0 ]; then
  echo "verify-library-fixes: downloading $missing jars from Maven Central" >&2
  command -v mvn >/dev/null || { echo "verify-library-fixes: needs mvn to download jars" >&2; exit 9; }
  mvn -B -q -f "$jars/pom.xml" dependency:copy >&2
fi

results="$jars/results.tsv"
"$python" "$root/tools/library_fixes.py" check "$jars/tasks.tsv" "$root/vtscope" >"$results"

out="$jars/report.txt"
status=0
{
  echo "# tools/verify-library-fixes.sh --write, $(date -u +%Y-%m-%d), vtscope scan --calls-of"
  echo "# CHECK lines: artifact, release, role, pin (method -> call made inside the monitor), status, the class files read"
  echo "#   AFFECTED: a synchronized method or block holds a monitor around the call (or the call runs the caller's"
  echo "#   function under a JDK monitor); FIXED: the call is there, outside any monitor; NOCALL/NOMETHOD/NOCLASS: not verifiable"
  echo
  "$python" "$root/tools/library_fixes.py" report "$knowledge" "$jars" "$results" || status=$?
} >"$out"
cat "$out"
if [ -n "$write" ]; then
  mkdir -p "$root/docs/evidence"
  # Paths under this checkout would differ on every machine: name the jars only.
  sed "s#$jars/##g" "$out" >"$root/docs/evidence/library-fixes.txt"
fi
exit "$status"
