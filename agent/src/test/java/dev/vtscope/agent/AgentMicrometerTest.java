package dev.vtscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.Eventually;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent with the application's Micrometer or OpenTelemetry and without them, each in a JVM of
 * its own started with {@code -javaagent:vtscope-agent.jar}: with Micrometer's jars on the class
 * path, the application finds the pinned timer of the holder it pinned in in Micrometer's global
 * registry; with OpenTelemetry's SDK, the pinned histogram of that holder in its in-memory metric
 * reader; without either, the agent serves its endpoint as ever and says nothing of them. It runs
 * on the JDK that runs the tests: the build's, and the JDK 21 runtime of {@code ./run-tests}'
 * second pass.
 */
class AgentMicrometerTest {

  private static final Pattern SERVING =
      Pattern.compile("vtscope-agent: serving OpenMetrics on http://([^/]+)/metrics");

  @TempDir Path dir;

  @Test
  void theApplicationsMicrometerHoldsPinnedTimeByHolder() throws Exception {
    List<String> classPath = new ArrayList<>(micrometerJars());
    classPath.add(testClasses().toString());
    Process app = start(classPath, "dev.vtscope.agent.MicrometerApplication", "");
    assertThat(app.waitFor(60, TimeUnit.SECONDS)).as("the application ends: %s", output()).isTrue();
    String out = output();
    assertThat(app.exitValue()).as(out).isZero();
    assertThat(out).contains("vtscope-agent: registered with Micrometer's global registry");

    // Micrometer lists tags by name.
    Pattern pinned =
        Pattern.compile(
            "meter jvm\\.threads\\.virtual\\.pinned\\{artifact=[^,]*,holder_class="
                + Pattern.quote(PinningService.holderClass() + ",holder_method=")
                + Pattern.quote(
                    PinningService.holderMethod() + ",kind=" + PinningService.holderKind())
                + "} count=(\\S+) total_time=(\\S+)");
    Matcher m = pinned.matcher(out);
    assertThat(m.find()).as("the holder's pinned timer in:%n%s", out).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isPositive();
    assertThat(Double.parseDouble(m.group(2))).isPositive();
    assertThat(out)
        .contains("meter jvm.threads.virtual.submit.failed{} count=0.0")
        .contains("meter vtscope.carriers.held.peak{} value=")
        .contains("meter vtscope.findings{severity=high} value=")
        .contains(
            "meter jvm.threads.virtual.pinned{artifact=,holder_class=other,holder_method=,kind=other}")
        .doesNotContain("Exception")
        .doesNotContain("refused");
  }

  @Test
  void theApplicationsOpenTelemetryHoldsPinnedTimeByHolder() throws Exception {
    List<String> classPath = new ArrayList<>(jars("vtscope.openTelemetryJars"));
    classPath.add(testClasses().toString());
    Process app = start(classPath, "dev.vtscope.agent.OpenTelemetryApplication", "", "60");
    try {
      // the agent has looked for the global OpenTelemetry, not set yet, and has not set it: the
      // application sets it now, and would fail if the agent had
      Eventually.value(
          "the agent waits for the application's OpenTelemetry",
          () -> {
            assertThat(app.isAlive()).as("the application runs; it said:%n%s", output()).isTrue();
            return output();
          },
          out -> out.contains("registering once the application sets GlobalOpenTelemetry"));
      goOn(app);
      assertThat(app.waitFor(60, TimeUnit.SECONDS))
          .as("the application ends: %s", output())
          .isTrue();
    } finally {
      app.destroyForcibly();
      app.waitFor(20, TimeUnit.SECONDS);
    }
    String out = output();
    assertThat(app.exitValue()).as(out).isZero();
    assertThat(out)
        .contains("set GlobalOpenTelemetry")
        .contains("vtscope-agent: registered with OpenTelemetry's global meter provider");

    // the SDK's attributes, by key
    Pattern pinned =
        Pattern.compile(
            "metric jvm\\.thread\\.virtual\\.pinned type=HISTOGRAM unit=s \\{vtscope\\.artifact=[^,]*,"
                + Pattern.quote(
                    "vtscope.holder.class="
                        + PinningService.holderClass()
                        + ",vtscope.holder.method="
                        + PinningService.holderMethod()
                        + ",vtscope.kind="
                        + PinningService.holderKind()
                        + "} count=")
                + "(\\d+) sum=(\\S+)");
    Matcher m = pinned.matcher(out);
    assertThat(m.find()).as("the holder's pinned histogram in:%n%s", out).isTrue();
    assertThat(Long.parseLong(m.group(1))).isPositive();
    assertThat(Double.parseDouble(m.group(2))).isPositive();
    assertThat(out)
        .contains("metric jvm.thread.virtual.submit_failed type=LONG_SUM unit= {} value=0")
        .contains("metric vtscope.carriers.held.peak type=LONG_GAUGE unit={thread} {} value=")
        .contains("metric vtscope.findings type=LONG_GAUGE unit={finding} {vtscope.severity=high}")
        .doesNotContain("Exception")
        .doesNotContain("cannot register");
  }

  @Test
  void openTelemetryFalseLeavesTheApplicationsOpenTelemetryAlone() throws Exception {
    assertThat(
            switchedOff(
                jars("vtscope.openTelemetryJars"),
                "dev.vtscope.agent.OpenTelemetryApplication",
                ",opentelemetry=false"))
        .contains("set GlobalOpenTelemetry")
        .doesNotContain("vtscope-agent: OpenTelemetry")
        .doesNotContain("registered with OpenTelemetry")
        .doesNotContain("metric jvm.thread.virtual.pinned")
        .doesNotContain("metric vtscope.");
  }

  @Test
  void withoutMicrometerOrOpenTelemetryTheAgentServesAsEver() throws Exception {
    Process app =
        start(List.of(testClasses().toString()), "dev.vtscope.agent.PinningService", "", "60");
    try {
      String endpoint = endpoint(app);
      HttpResponse<String> scrape =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://" + endpoint + "/metrics")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.body()).contains("jvm_threads_virtual_pinned_seconds_count");
      // pins made once the agent records, and an interval analysed with whatever that loads
      app.getOutputStream().write("pin\n".getBytes(StandardCharsets.UTF_8));
      app.getOutputStream().flush();
      Eventually.value(
          "the service's pins are counted at " + endpoint,
          () -> scrape(endpoint),
          body -> pinnedCount(body) > 0);
      assertThat(app.isAlive()).as(output()).isTrue();
      assertThat(output())
          .doesNotContainIgnoringCase("micrometer")
          .doesNotContainIgnoringCase("opentelemetry")
          .doesNotContain("Exception")
          .doesNotContain("Error");
    } finally {
      app.destroyForcibly();
      app.waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void micrometerFalseLeavesTheApplicationsMicrometerAlone() throws Exception {
    assertThat(
            switchedOff(
                micrometerJars(), "dev.vtscope.agent.MicrometerApplication", ",micrometer=false"))
        .contains("serving OpenMetrics")
        .doesNotContain("registered with Micrometer")
        .doesNotContain("meter jvm.threads.virtual.pinned")
        .doesNotContain("meter vtscope.");
  }

  /**
   * Runs {@code main}, an application with its own metrics library on {@code libraries}, with the
   * agent told by {@code option} to leave that library alone, and returns what both printed: the
   * application pins, and once an interval with the pins is analysed (long after the agent would
   * have registered) it prints what its library has and ends.
   */
  private String switchedOff(List<String> libraries, String main, String option) throws Exception {
    List<String> classPath = new ArrayList<>(libraries);
    classPath.add(testClasses().toString());
    Process app = start(classPath, main, option, "60");
    try {
      String endpoint = endpoint(app);
      goOn(app);
      Eventually.value(
          "the service's pins are counted at " + endpoint,
          () -> scrape(endpoint),
          body -> pinnedCount(body) > 0);
      goOn(app);
      assertThat(app.waitFor(60, TimeUnit.SECONDS))
          .as("the application ends: %s", output())
          .isTrue();
      return output();
    } finally {
      app.destroyForcibly();
      app.waitFor(20, TimeUnit.SECONDS);
    }
  }

  private static void goOn(Process app) throws IOException {
    app.getOutputStream().write("\n".getBytes(StandardCharsets.UTF_8));
    app.getOutputStream().flush();
  }

  private Process start(List<String> classPath, String main, String options, String... args)
      throws IOException {
    Path agent = Path.of(System.getProperty("vtscope.agentJar"));
    assertThat(agent).as("vtscope-agent.jar is made before the tests run").exists();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ChildJvms.program());
    command.add("-javaagent:" + agent + "=port=0,interval=1s,threshold=0ms" + options);
    command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), main));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("app.log").toFile())
        .start();
  }

  private String endpoint(Process app) throws Exception {
    String said =
        Eventually.value(
            "the agent serves",
            () -> {
              assertThat(app.isAlive()).as("the application runs; it said:%n%s", output()).isTrue();
              return output();
            },
            output -> SERVING.matcher(output).find());
    Matcher m = SERVING.matcher(said);
    m.find();
    return m.group(1);
  }

  private static String scrape(String endpoint) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://" + endpoint + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** The pinned events the scraped {@code body} counts in the service's holder, or 0. */
  private static long pinnedCount(String body) {
    Matcher m =
        Pattern.compile(
                Pattern.quote(
                        "jvm_threads_virtual_pinned_seconds_count{holder_class=\""
                            + PinningService.holderClass()
                            + "\",holder_method=\""
                            + PinningService.holderMethod()
                            + "\",kind=\""
                            + PinningService.holderKind()
                            + "\",artifact=\"")
                    + "[^\"]*\"\\} (\\d+)")
            .matcher(body);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  private String output() {
    try {
      return Files.readString(dir.resolve("app.log"));
    } catch (IOException e) {
      return "";
    }
  }

  /** Micrometer and the libraries it needs, copied by the build into target/micrometer. */
  private static List<String> micrometerJars() throws IOException {
    return jars("vtscope.micrometerJars");
  }

  /** The jars of the folder a system property names (target/micrometer, target/opentelemetry). */
  private static List<String> jars(String property) throws IOException {
    Path jars = Path.of(System.getProperty(property));
    try (Stream<Path> files = Files.list(jars)) {
      List<String> found = files.map(Path::toString).filter(f -> f.endsWith(".jar")).toList();
      assertThat(found).as("the jars in %s", jars).isNotEmpty();
      return found;
    }
  }

  private static Path testClasses() throws Exception {
    return Path.of(
        PinningService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
