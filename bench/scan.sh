#!/usr/bin/env bash
# Times `vtscope scan` on a Spring Boot application's class path: the dependencies of an
# application with about thirty starters (web, webflux, JPA, jOOQ, security, OAuth2, actuator,
# messaging, batch, MongoDB, Elasticsearch, GraphQL, ...) and three JDBC drivers, about 200 jars,
# resolved from Maven Central into bench/work/scan/lib (once; it may be a symbolic link to another
# checkout's), then scanned RUNS times.
#
#   bench/scan.sh [RUNS]
#
# Prints the number of jars and classes, each run's wall time and CPU use (GNU time), and the
# findings by risk. Needs mvn and network access the first time.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
runs=${1:-3}
work="$root/bench/work/scan"
lib="$work/lib"
boot=3.3.5
mkdir -p "$work"

if [ ! -d "$lib" ] || [ -z "$(ls -A "$lib" 2>/dev/null)" ]; then
  cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId>
  <artifactId>scan-app</artifactId>
  <version>1</version>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-dependencies</artifactId>
        <version>$boot</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
$(for a in spring-boot-starter-web spring-boot-starter-data-jpa spring-boot-starter-security \
    spring-boot-starter-actuator spring-boot-starter-validation spring-boot-starter-cache \
    spring-boot-starter-data-redis spring-boot-starter-amqp spring-boot-starter-mail \
    spring-boot-starter-thymeleaf spring-boot-starter-webflux spring-boot-starter-quartz \
    spring-boot-starter-oauth2-client spring-boot-starter-oauth2-resource-server \
    spring-boot-starter-websocket spring-boot-starter-batch spring-boot-starter-integration \
    spring-boot-starter-data-mongodb spring-boot-starter-data-elasticsearch \
    spring-boot-starter-graphql spring-boot-starter-jooq spring-boot-starter-artemis \
    spring-boot-starter-data-rest spring-boot-starter-hateoas; do
    echo "    <dependency><groupId>org.springframework.boot</groupId><artifactId>$a</artifactId></dependency>"
  done)
    <dependency><groupId>org.springframework.kafka</groupId><artifactId>spring-kafka</artifactId></dependency>
    <dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId></dependency>
    <dependency><groupId>com.mysql</groupId><artifactId>mysql-connector-j</artifactId></dependency>
    <dependency><groupId>com.h2database</groupId><artifactId>h2</artifactId></dependency>
    <dependency><groupId>com.github.ben-manes.caffeine</groupId><artifactId>caffeine</artifactId></dependency>
    <dependency><groupId>org.flywaydb</groupId><artifactId>flyway-core</artifactId></dependency>
    <dependency><groupId>io.micrometer</groupId><artifactId>micrometer-registry-prometheus</artifactId></dependency>
  </dependencies>
</project>
POM
  echo "scan.sh: resolving the application's dependencies into $lib" >&2
  mvn -B -q -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$lib" -DincludeScope=runtime >&2
fi

jars=$(find "$lib/" -name '*.jar' | wc -l)
echo "class path: $jars jars in bench/work/scan/lib, $(du -shL "$lib/" | cut -f1)"
"$root/vtscope" scan "$lib/*" --format json -o "$work/scan.json" || true
python3 - "$work/scan.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("classes %d, methods %d; findings: %s" % (d["classes"], d["methods"], d["counts"]))
PY
for i in $(seq "$runs"); do
  echo "load average before run $i: $(cut -d" " -f1-3 /proc/loadavg)"
  /usr/bin/time -f "run $i: %e s wall, %U s user + %S s system CPU (%P), %M KB peak RSS" "$root/vtscope" scan "$lib/*" -o /dev/null
done
