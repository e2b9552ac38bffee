package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.live.AttachedJvm;
import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.LiveProgram;
import dev.vtscope.testing.RunningWorkload;
import dev.vtscope.testing.TestRecordings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code vtscope jvms} and {@code vtscope record --pid} against workloads running in child JVMs of
 * JDK 21 and of JDK 24+, attached to from the JDK running the tests (the suite runs on both).
 */
class RecordPidCommandTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  static Stream<Path> javas() {
    return Stream.of(TestRecordings.jdk21Java(), TestRecordings.jdk24PlusJava());
  }

  /** The recordings a JVM has, as JFR.check lists them. */
  private static String recordings(long pid) throws Exception {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      return jvm.execute("JFR.check");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void jvmsListsARunningWorkloadWithItsJdkRelease(Path java) throws Exception {
    try (RunningWorkload target = RunningWorkload.pinning(java, List.of())) {
      Cli.Result result = Cli.run("jvms");
      assertThat(result.exitCode()).as(result.err()).isZero();
      String line =
          result
              .out()
              .lines()
              .filter(l -> l.startsWith(target.pid() + " "))
              .findFirst()
              .orElseThrow(
                  () -> new AssertionError("pid " + target.pid() + " in\n" + result.out()));
      assertThat(line)
          .matches(
              target.pid()
                  + " +"
                  + RunningWorkload.feature(java)
                  + "[.\\d]* +dev\\.vtscope\\.workloads\\.Workloads .*");
      assertThat(result.out().lines().findFirst().orElseThrow()).matches("PID +JDK +MAIN");
      assertThat(result.out()).doesNotContain(ProcessHandle.current().pid() + "  ");
    }
  }

  @ParameterizedTest
  @MethodSource("javas")
  void recordsARunningJvmAndLeavesItsOwnRecordingRunning(Path java) throws Exception {
    // the JVM's owner runs a recording of their own, which vtscope must leave alone
    try (RunningWorkload target =
        RunningWorkload.pinning(
            java, List.of("-XX:StartFlightRecording:name=mine", "-Xlog:jfr+startup=warning"))) {
      Path out = dir.resolve("live.jfr");
      Cli.Result result =
          Cli.run(
              "record",
              "--pid",
              String.valueOf(target.pid()),
              "--duration",
              "3s",
              "--pinned-threshold",
              "0ms",
              "--out",
              out.toString(),
              "--format",
              "json");
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.err())
          .contains("recording pid " + target.pid())
          .containsPattern("as JFR recording vtscope-\\d+-\\w+ into")
          .contains("recorded pid " + target.pid());
      assertThat(out).isRegularFile();
      JsonNode report = MAPPER.readTree(result.out());
      int feature = RunningWorkload.feature(java);
      assertThat(report.at("/jvm/feature").asInt()).isEqualTo(feature);
      assertThat(report.at("/pinned/events").asLong()).isPositive();
      assertThat(report.at("/pinned/sites/0/culprit/kind").asText())
          .isEqualTo(feature >= 22 ? "FOREIGN_FUNCTION" : "SYNCHRONIZED_BLOCK");
      // as it was: the owner's recording runs, vtscope's is gone
      String after = recordings(target.pid());
      assertThat(after).contains("name=mine").contains("(running)").doesNotContain("vtscope-");
      assertThat(target.process().isAlive()).isTrue();
    }
  }

  /**
   * Every carrier pinned by a pin that never ends while recorded: no pinned event is written, so
   * the recording alone looks healthy; the thread dump taken as the recording ends shows them.
   */
  @Test
  void pinsThatHaveNotEndedAreNamedFromAThreadDumpNotCalledHealthy() throws Exception {
    try (RunningWorkload target =
        RunningWorkload.start(
            TestRecordings.jdk21Java(),
            List.of("-Djdk.virtualThreadScheduler.parallelism=2"),
            "pinning-per-task",
            "--tasks",
            "20",
            "--hold",
            "30s")) {
      Path out = dir.resolve("stuck.jfr");
      Cli.Result result =
          Cli.run(
              "record",
              "--pid",
              String.valueOf(target.pid()),
              "--duration",
              "2s",
              "--out",
              out.toString(),
              "--format",
              "json");
      assertThat(result.exitCode()).as(result.err()).isZero();
      JsonNode report = MAPPER.readTree(result.out());
      assertThat(report.at("/pinned/events").asLong()).isZero();
      JsonNode first = report.at("/findings/0");
      assertThat(first.get("id").asText()).isEqualTo("pinned-now");
      assertThat(first.get("severity").asText()).isEqualTo("high");
      assertThat(first.get("title").asText()).contains("PerTaskPinning.withMonitor");
      assertThat(report.get("findings").findValuesAsText("id"))
          .doesNotContain("healthy")
          // 2 s in which no pin ended is short, but the dump saw what the recording could not
          .doesNotContain("recording-short");
      assertThat(report.at("/carrierPool/reasoning").toString())
          .doesNotContain("No carrier was pinned")
          .contains("pins that have not ended");
    }
  }

  /**
   * The target pins its carriers every few ms and exits once vtscope's recording runs in it (the
   * test closes its standard input then), whenever that is on a busy machine.
   */
  @Test
  void aJvmThatExitsWhileRecordedKeepsWhatItWrote() throws Exception {
    Process target =
        new ProcessBuilder(
                ChildJvms.program(
                    TestRecordings.jdk21Java(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    LiveProgram.class.getName()))
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader said =
          new BufferedReader(
              new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
      assertThat(said.readLine()).as("the program started").isEqualTo("ready");
      Path out = dir.resolve("short.jfr");
      CompletableFuture<Cli.Result> recorded =
          CompletableFuture.supplyAsync(
              () ->
                  Cli.run(
                      "record",
                      "--pid",
                      String.valueOf(target.pid()),
                      "--duration",
                      "10m",
                      "--pinned-threshold",
                      "0ms",
                      "--out",
                      out.toString(),
                      "--format",
                      "json"));
      Eventually.holds(
          "vtscope's recording runs in the target",
          () -> recorded.isDone() || recordings(target.pid()).contains("vtscope-"));
      target.getOutputStream().close(); // the program exits
      Cli.Result result = recorded.get(10, TimeUnit.MINUTES);
      // vtscope noticed the exit (exit 8), not the end of --duration (exit 0)
      assertThat(result.exitCode()).as(result.err()).isEqualTo(8);
      assertThat(result.err()).contains("pid " + target.pid() + " exited after");
      assertThat(out).isRegularFile();
      assertThat(MAPPER.readTree(result.out()).at("/pinned/events").asLong()).isPositive();
    } finally {
      target.destroyForcibly();
      target.waitFor(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void anInterruptedRecordStopsItsRecordingInTheTarget() throws Exception {
    try (RunningWorkload target = RunningWorkload.pinning(TestRecordings.jdk21Java(), List.of())) {
      Path out = dir.resolve("interrupted.jfr");
      Path log = dir.resolve("vtscope.log");
      Process vtscope =
          new ProcessBuilder(
                  ChildJvms.vtscope(
                      TestRecordings.currentJava(),
                      "record",
                      "--pid",
                      String.valueOf(target.pid()),
                      "--duration",
                      "5m",
                      "--out",
                      out.toString()))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      Eventually.holds(
          "vtscope says it records",
          () -> {
            assertThat(vtscope.isAlive()).as(Files.readString(log)).isTrue();
            return Files.readString(log).contains("recording pid " + target.pid());
          });
      assertThat(recordings(target.pid())).contains("vtscope-").contains("(running)");
      vtscope.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the shutdown hooks run
      assertThat(vtscope.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(log))
          .contains("interrupted; stopped recording vtscope-")
          .contains(out.toString());
      assertThat(recordings(target.pid())).doesNotContain("vtscope-");
      assertThat(out).isRegularFile();
      assertThat(Files.size(out)).isPositive();
    }
  }

  @Test
  void aProcessThatIsNotAJvmIsRefusedWithoutBeingSignalled() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      Cli.Result result =
          Cli.run(
              "record",
              "--pid",
              String.valueOf(sleep.pid()),
              "--out",
              dir.resolve("x.jfr").toString());
      assertThat(result.exitCode()).isEqualTo(8);
      assertThat(result.err().lines()).hasSize(1);
      assertThat(result.err())
          .contains("is not a JVM vtscope can attach to")
          .contains("vtscope jvms");
      assertThat(sleep.isAlive()).as("the Attach API's signal would have ended it").isTrue();
    } finally {
      sleep.destroyForcibly();
    }
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Cli.Result result = Cli.run("record", "--pid", String.valueOf(gone.pid()));
    assertThat(result.exitCode()).isEqualTo(8);
    assertThat(result.err()).contains("no process with pid " + gone.pid());
  }

  @Test
  void pidTakesNoCommandOrWorkload() {
    Cli.Result result = Cli.run("record", "--pid", "1", "--workload", "pinning");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err()).contains("--pid records a running JVM");
    Cli.Result duration = Cli.run("record", "--duration", "3s", "--workload", "pinning");
    assertThat(duration.exitCode()).isEqualTo(2);
    assertThat(duration.err()).contains("--duration goes with --pid");
  }
}
