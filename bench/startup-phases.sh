#!/usr/bin/env bash
# Where a short run's time goes, measured inside the JVM:
#
#   bench/startup-phases.sh [RUNS] [RECORDING]
#
# Compiles bench/StartupPhases.java against the jar, then runs it RUNS times (default 8) with the
# launcher's JVM options and class-data archive, on RECORDING (default the 125 KB sample), as
# `vtscope analyze -q --format json` would: it prints how long building the command line took and
# how long the command took, each run and their medians. Run one analysis with ./vtscope first so
# that the archive exists (this script does it).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
runs=${1:-8}
recording=${2:-$root/samples/jdk21/pinning-synchronized.jfr}
vt_find_java 21 javac || { echo "bench: needs a JDK 21+ with javac" >&2; exit 9; }
java=$VT_JAVA
home=${java%/bin/java}
"$root/vtscope" analyze -q --format json "$recording" >/dev/null
jar="$root/cli/target/vtscope.jar"
vt_release "$home"
key="${home#/}-$VT_RUNTIME_VERSION-$VT_RELEASE_VERSION"
archive="$root/cli/target/cds/vtscope-${key//[^A-Za-z0-9.+-]/_}.jsa"
[ -f "$archive" ] || { echo "bench: no class-data archive at $archive" >&2; exit 9; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$(dirname "$java")/javac" -d "$work" -cp "$jar" "$root/bench/StartupPhases.java"
# the launcher's options (see ./vtscope); its archive lists the jar first, so the class path
# may go on after it
for i in $(seq "$runs"); do
  "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms128m -Xmn64m -XX:SurvivorRatio=3 \
    "-XX:SharedArchiveFile=$archive" -Xlog:cds=off -Dvtscope.home="$root" \
    -Dvtscope.stderrTerminal=false -cp "$jar:$work" dev.vtscope.cli.StartupPhases \
    analyze -q --format json "$recording"
done | tee "$work/phases.txt"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "median: command line $(awk '{print $2}' "$work/phases.txt" | median) ms," \
  "command $(awk '{print $4}' "$work/phases.txt" | median) ms"
