#!/usr/bin/env bash
# The reader's passes and the whole analysis, one build against another, in one process on one
# core each:
#
#   bench/reader-phases.sh OLD.jar NEW.jar [FILE] [ROUNDS] [PASSES] [MODES]
#
# For each of ROUNDS rounds (default 3), interleaved, each jar runs bench/ReaderPhases.java in
# each of MODES (default "walk read analyze"): `walk` (the record walk: every chunk compacted),
# `read` (the walk, then the kept events decoded) and `analyze` (what `vtscope analyze` does but
# for the report), PASSES passes a process (default 6), on the launcher's JVM flags (bench/launcher-flags.sh), held to one
# core (taskset, where there is one): a pass's time is then its work, and what runs beside other
# work on a second core (the carriers' sweep) counts as work, not as time saved. Prints, per jar and mode, the
# best pass of every round and the best of all, and NEW's best over OLD's: a whole command's time
# varies by a tenth from run to run on a shared 2-core machine, the best pass on one core far less.
# FILE defaults to the allocation-heavy gigabyte bench/reading.sh makes.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
old=$(realpath "${1:?the jar to compare with}")
new=$(realpath "${2:?the jar to compare}")
file=${3:-$root/bench/work/allocation-1024m.jfr}
rounds=${4:-3}
passes=${5:-6}
read -r -a modes <<<"${6:-walk read analyze}"
one_core=()
if command -v taskset >/dev/null 2>&1; then
  # the first CPU this process may run on ("pid N's current affinity list: 2-5,7")
  cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
  one_core=(taskset -c "$cpu")
fi
[ -s "$file" ] || { echo "bench: no $file (BENCH_SHAPE=allocation bench/make-large-recording.sh 1024 $file makes it)" >&2; exit 9; }
vt_find_java 21 javac || { echo "bench: needs a JDK 21+" >&2; exit 9; }
bin=$(dirname "$VT_JAVA")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/javac" -cp "$new" -d "$work/classes" "$root/bench/ReaderPhases.java"
# shellcheck source=launcher-flags.sh
. "$root/bench/launcher-flags.sh"
flags_listed=$(launcher_flags "$root") || exit 9
read -r -a flags <<<"$flags_listed"
for round in $(seq "$rounds"); do
  for mode in "${modes[@]}"; do
    for jar in old new; do
      path=$old; [ $jar = new ] && path=$new
      ${one_core[@]+"${one_core[@]}"} "$bin/java" "${flags[@]}" -cp "$path:$work/classes" dev.vtscope.recording.ReaderPhases "$mode" "$file" "$passes" \
        | awk '{print $1}' | sort -n | head -1 >>"$work/$jar-$mode.txt"
    done
  done
done
printf '%-6s %-5s %-28s %8s\n' mode jar "best pass of each round, ms" best
for mode in "${modes[@]}"; do
  for jar in old new; do
    printf '%-6s %-5s %-28s %8s\n' "$mode" "$jar" "$(tr '\n' ' ' <"$work/$jar-$mode.txt")" "$(sort -n "$work/$jar-$mode.txt" | head -1)"
  done
  o=$(sort -n "$work/old-$mode.txt" | head -1)
  n=$(sort -n "$work/new-$mode.txt" | head -1)
  awk -v m="$mode" -v n="$n" -v o="$o" 'BEGIN { printf "%-6s new / old: %.2f\n", m, n / o }'
done
