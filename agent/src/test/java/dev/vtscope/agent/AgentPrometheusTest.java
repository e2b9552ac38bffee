package dev.vtscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path a fleet uses: a workload JVM started with {@code -javaagent:vtscope-agent.jar}, a
 * real Prometheus scraping it on the loopback interface, and a query of Prometheus' HTTP API for
 * pinned time by holder that names the code the workload pins in. It runs on the JDK that runs the
 * tests: the build's, and the JDK 21 runtime of {@code ./run-tests}' second pass.
 */
class AgentPrometheusTest {

  private static final Pattern SERVING =
      Pattern.compile("vtscope-agent: serving OpenMetrics on http://([^/]+)/metrics");

  @TempDir Path dir;

  @Test
  void prometheusAnswersPinnedTimeByHolder() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    int feature = Runtime.version().feature();
    // JDK 24+ unmounts in synchronized code (JEP 491): there a foreign call pins.
    List<String> workload =
        feature >= 22
            ? List.of("native-pinning", "--variant", "upcall", "--threads", "100000")
            : List.of("pinning", "--variant", "synchronized", "--tasks", "100000", "--hold", "5ms");
    String holderClass =
        feature >= 22
            ? "dev.vtscope.workloads.ForeignCallPinning"
            : "dev.vtscope.workloads.SharedLockPinning";
    String holderMethod = feature >= 22 ? "sortNatively" : "withMonitor";

    PrometheusServer.executable(); // fails first, and clearly, without Prometheus
    try (Workload child = Workload.start(java, dir, workload)) {
      String target = child.endpoint();
      try (PrometheusServer prometheus = PrometheusServer.start(dir, List.of(target))) {
        String query =
            "sum by (holder_class, holder_method, kind) (jvm_threads_virtual_pinned_seconds_sum)";
        JsonNode found =
            holder(
                Eventually.value(
                    "pinned time of " + holderClass + "." + holderMethod + " in Prometheus",
                    () -> prometheus.query(query),
                    series -> holder(series, holderClass, holderMethod) != null),
                holderClass,
                holderMethod);
        assertThat(found.path("metric").path("kind").asText())
            .isEqualTo(feature >= 22 ? "foreign_function" : "synchronized_block");

        JsonNode targets = prometheus.targets();
        assertThat(targets).hasSize(1);
        assertThat(targets.get(0).path("health").asText()).isEqualTo("up");
        assertThat(targets.get(0).path("lastError").asText()).isEmpty();

        JsonNode events =
            prometheus.query(
                "jvm_threads_virtual_pinned_seconds_count{holder_class=\"" + holderClass + "\"}");
        assertThat(events).hasSize(1);
        assertThat(Long.parseLong(events.get(0).path("value").get(1).asText())).isPositive();
        assertThat(prometheus.query("jvm_threads_virtual_submit_failed_total")).hasSize(1);
        assertThat(prometheus.query("vtscope_findings")).hasSize(4);
      }
    }
  }

  /** The series of {@code holderClass.holderMethod} with pinned time, or null. */
  private static JsonNode holder(JsonNode series, String holderClass, String holderMethod) {
    for (JsonNode one : series) {
      JsonNode labels = one.path("metric");
      if (holderClass.equals(labels.path("holder_class").asText())
          && holderMethod.equals(labels.path("holder_method").asText())
          && Double.parseDouble(one.path("value").get(1).asText()) > 0) {
        return one;
      }
    }
    return null;
  }

  @Test
  void theJvmExitsWhenTheApplicationEnds() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    try (Workload child =
        Workload.start(
            java,
            dir,
            List.of("pinning", "--variant", "synchronized", "--tasks", "2000", "--hold", "2ms"))) {
      assertThat(child.process().waitFor(30, TimeUnit.SECONDS))
          .as("the agent's threads keep no JVM alive; the workload said:%n%s", child.output())
          .isTrue();
      assertThat(child.process().exitValue()).isZero();
      assertThat(child.output()).as("the agent ran meanwhile").contains("serving OpenMetrics");
    }
  }

  /** A workload JVM with the agent, on a port of its choosing, its output in a file. */
  record Workload(Process process, Path log) implements AutoCloseable {

    static Workload start(Path java, Path dir, List<String> args) throws Exception {
      Path agent = Path.of(System.getProperty("vtscope.agentJar"));
      assertThat(agent).as("vtscope-agent.jar is made before the tests run").exists();
      Path workloads =
          Path.of(
              dev.vtscope.workloads.Workloads.class
                  .getProtectionDomain()
                  .getCodeSource()
                  .getLocation()
                  .toURI());
      List<String> command = new ArrayList<>();
      command.add(java.toString());
      command.addAll(ChildJvms.program());
      command.add("--enable-native-access=ALL-UNNAMED");
      command.add("-javaagent:" + agent + "=port=0,interval=1s,threshold=0ms");
      command.addAll(List.of("-cp", workloads.toString(), "dev.vtscope.workloads.Workloads"));
      command.addAll(args);
      Path output = dir.resolve("workload.log");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      return new Workload(process, output);
    }

    /** The agent's {@code host:port}, once it says it serves. */
    String endpoint() throws Exception {
      String said =
          Eventually.value(
              "the agent serves",
              () -> {
                String output = output();
                assertThat(process.isAlive() || SERVING.matcher(output).find())
                    .as("the workload runs; it said:%n%s", output)
                    .isTrue();
                return output;
              },
              output -> SERVING.matcher(output).find());
      Matcher m = SERVING.matcher(said);
      m.find();
      return m.group(1);
    }

    String output() {
      try {
        return Files.readString(log);
      } catch (java.io.IOException e) {
        return "";
      }
    }

    @Override
    public void close() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(20, TimeUnit.SECONDS);
    }
  }
}
