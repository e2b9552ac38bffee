#!/usr/bin/env bash
# Measures how precise `vtscope scan` is on 30 widely used libraries of the kinds a virtual-thread
# application leans on: JDBC drivers, connection pools, HTTP clients, caches, messaging and
# coordination clients, logging, serialisation (docs/scan-precision.md).
#
#   bench/scan-precision.sh [TOP]
#
# Resolves the 30 libraries, pinned to exact versions, with their runtime dependencies from Maven
# Central into bench/work/scan-precision/jars, and their -sources jars (for checking the findings
# by hand) into bench/work/scan-precision/sources (once). Scans the whole class path, so that calls
# into a library's dependencies are followed, then keeps only the findings in the 30 libraries'
# own jars, in the scan's own order (riskiest first), and writes the first TOP (default 50) to
# bench/work/scan-precision/top.tsv and top.txt. Needs mvn and network access the first time.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
top=${1:-50}
work="$root/bench/work/scan-precision"
jars="$work/jars"
sources="$work/sources"
mkdir -p "$work"

# groupId:artifactId:version, one a line: the scan's inputs.
libraries="
org.postgresql:postgresql:42.7.4
com.mysql:mysql-connector-j:8.0.33
org.mariadb.jdbc:mariadb-java-client:3.4.1
com.h2database:h2:2.2.224
org.hsqldb:hsqldb:2.7.3
com.oracle.database.jdbc:ojdbc11:23.5.0.24.07
com.microsoft.sqlserver:mssql-jdbc:12.8.1.jre11
com.zaxxer:HikariCP:5.1.0
org.apache.commons:commons-dbcp2:2.12.0
org.apache.commons:commons-pool2:2.12.0
com.mchange:c3p0:0.9.5.5
com.squareup.okhttp3:okhttp:4.12.0
org.apache.httpcomponents:httpclient:4.5.14
org.apache.httpcomponents.client5:httpclient5:5.3.1
org.eclipse.jetty:jetty-client:12.0.14
org.asynchttpclient:async-http-client:3.0.0
com.github.ben-manes.caffeine:caffeine:3.1.8
org.ehcache:ehcache:3.10.8
com.google.guava:guava:33.3.1-jre
org.apache.kafka:kafka-clients:3.8.0
com.rabbitmq:amqp-client:5.22.0
redis.clients:jedis:5.2.0
io.lettuce:lettuce-core:6.4.0.RELEASE
org.apache.zookeeper:zookeeper:3.9.2
org.apache.curator:curator-framework:5.7.1
log4j:log4j:1.2.17
org.apache.logging.log4j:log4j-core:2.24.1
ch.qos.logback:logback-classic:1.5.12
commons-logging:commons-logging:1.3.4
com.fasterxml.jackson.core:jackson-databind:2.18.1
"

if [ ! -d "$jars" ] || [ -z "$(ls -A "$jars" 2>/dev/null)" ]; then
  {
    echo '<project xmlns="http://maven.apache.org/POM/4.0.0">'
    echo '  <modelVersion>4.0.0</modelVersion>'
    echo '  <groupId>bench</groupId><artifactId>scan-precision</artifactId><version>1</version>'
    echo '  <dependencies>'
    for gav in $libraries; do
      IFS=: read -r g a v <<<"$gav"
      # Ehcache's JAXB (XML configuration only) asks for a pre-release from a retired repository.
      excl=""
      [ "$a" = ehcache ] && excl="<exclusions><exclusion><groupId>org.glassfish.jaxb</groupId><artifactId>*</artifactId></exclusion></exclusions>"
      echo "    <dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>$excl</dependency>"
    done
    echo '  </dependencies>'
    echo '</project>'
  } >"$work/pom.xml"
  echo "scan-precision.sh: resolving the 30 libraries and their dependencies into $jars" >&2
  mvn -B -q -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$jars" \
    -DincludeScope=runtime >&2
  echo "scan-precision.sh: their sources into $sources" >&2
  mvn -B -q -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$sources" \
    -DincludeScope=runtime -DexcludeTransitive=true -Dclassifier=sources \
    -Dmdep.failOnMissingClassifierArtifact=false >&2 || true
fi

for gav in $libraries; do
  IFS=: read -r g a v <<<"$gav"
  [ -f "$jars/$a-$v.jar" ] || { echo "scan-precision.sh: $a-$v.jar missing from $jars" >&2; exit 1; }
done
echo "class path: $(find "$jars" -name '*.jar' | wc -l) jars ($(du -sh "$jars" | cut -f1)), 30 of them scanned for findings"

/usr/bin/time -f "scan: %e s wall, %U s user, %P CPU, %M KB peak RSS" \
  "$root/vtscope" scan "$jars/*" --format json -o "$work/scan.json" || true

python3 - "$work/scan.json" "$top" "$work" $libraries <<'PY'
import json, os, sys
path, top, work, gavs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
d = json.load(open(path))
# A finding's jar: its location is the jar's path (a class file inside it may follow "!/").
files = {"%s-%s.jar" % tuple(g.split(":")[1:]): g for g in gavs}
def library(f):
    name = os.path.basename(f["location"].split("!")[0])
    return files.get(name)
mine = [f for f in d["findings"] if library(f)]
print("classes %d, methods %d; findings: %s on the whole class path, %d in the 30 libraries"
      % (d["classes"], d["methods"], d["counts"], len(mine)))
by = {}
for f in mine:
    by.setdefault(f["severity"], 0)
    by[f["severity"]] += 1
print("in the 30 libraries by risk: %s" % by)
def step(s):
    return "%s.%s%s" % (s["className"], s["method"], "" if s.get("line") is None else ":%s" % s["line"])
with open(os.path.join(work, "top.tsv"), "w") as tsv, open(os.path.join(work, "top.txt"), "w") as txt:
    tsv.write("rank\tscore\tseverity\tkind\tlibrary\tmethod\tlines\tblocking\tchain\n")
    for i, f in enumerate(mine[:top], 1):
        chain = " -> ".join(step(s) for s in f["chain"])
        lines = f["lines"]
        tsv.write("%d\t%d\t%s\t%s\t%s\t%s.%s%s\t%s\t%s\t%s\n" % (
            i, f["score"], f["severity"], f["kind"], library(f), f["className"], f["method"],
            f["descriptor"], lines, f["blocking"], chain))
        txt.write("%2d. %s %d %s %s.%s%s lines %s\n    %s\n    %s\n" % (
            i, f["severity"].upper(), f["score"], f["kind"], f["className"], f["method"],
            f["descriptor"], lines, library(f), "\n    -> ".join(
                step(s) for s in f["chain"]) + "  [" + str(f["blocking"]) + "]"))
print("top %d: %s/top.tsv, top.txt" % (min(top, len(mine)), os.path.relpath(work)))
PY
