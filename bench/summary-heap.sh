#!/usr/bin/env bash
# What a recording's summary keeps in the heap, per pinned event:
#
#   bench/summary-heap.sh JAR FILE...
#
# For each FILE, runs bench/SummaryHeap.java on JAR (a build's cli/target/vtscope.jar, so that two
# builds compare side by side) with the launcher's JVM options, and when it has read the file into
# one summary and swept it, takes a class histogram (jcmd GC.class_histogram, which collects the
# whole heap first): the live heap with the summary reachable, less the dead space the serial
# collector leaves in place as filler arrays. Prints the pinned events and the live
# bytes; between two files of one shape, the difference of the bytes over the difference of the
# pins is what each pin costs. Needs a JDK 21+ with javac and jcmd.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
jar=$(cd "$(dirname "${1:?jar}")" && pwd -P)/$(basename "$1")
shift
vt_find_java 21 javac || { echo "bench: needs a JDK 21+ with javac" >&2; exit 9; }
bin=$(dirname "$VT_JAVA")
[ -x "$bin/jcmd" ] || { echo "bench: no jcmd next to $VT_JAVA" >&2; exit 9; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/javac" -cp "$jar" -d "$work/classes" "$root/bench/SummaryHeap.java"
for file in "$@"; do
  # the launcher's options for an analysis (tools/run-jar.sh)
  "$VT_JAVA" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms128m -Xmn64m -XX:SurvivorRatio=3 \
    -cp "$jar:$work/classes" dev.vtscope.analysis.SummaryHeap "$file" >"$work/out.txt" 2>&1 &
  pid=$!
  until grep -q '^ready' "$work/out.txt"; do
    kill -0 "$pid" 2>/dev/null || { echo "bench: SummaryHeap failed on $file: $(head -c 300 "$work/out.txt")" >&2; exit 1; }
    sleep 1
  done
  # the serial collector leaves some dead space in place, as filler arrays: not live
  live=$("$bin/jcmd" "$pid" GC.class_histogram \
    | awk '/^Total/ {total = $3} /jdk.internal.vm.FillerElement/ {filler += $3} END {print total - filler}')
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  echo "$(basename "$file"): $(grep '^ready' "$work/out.txt" | cut -d' ' -f2-), live heap $live bytes"
done
