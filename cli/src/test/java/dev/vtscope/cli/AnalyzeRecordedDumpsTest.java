package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.waits.SchedulerLimits;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vtscope analyze --thread-dumps}: the {@code jdk.ThreadDump} events of a recording read as
 * a series of one JVM's dumps, on the shipped recordings of the dump workloads.
 */
class AnalyzeRecordedDumpsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  private static String shipped(String jdk, String name) {
    return TestRecordings.repoRoot()
        .resolve("samples")
        .resolve(jdk)
        .resolve("dumps")
        .resolve(name + ".jfr")
        .toString();
  }

  /**
   * The platform-thread cycle, as the JVM's own Thread.print of the recording names it. (Of virtual
   * threads a Thread.print shows only those mounted, and on JDK 21 not what they run.)
   */
  @Test
  void aRecordingsThreadDumpsAreOneJvmsSeries() throws Exception {
    String recording = shipped("jdk21", "deadlock-platform-monitor");
    Cli.Result r = Cli.run("analyze", recording, "--thread-dumps", "--format", "json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode doc = MAPPER.readTree(r.out());
    assertThat(doc.get("dumps").size()).as(r.out()).isEqualTo(2);
    for (JsonNode d : doc.get("dumps")) {
      assertThat(d.get("path").asText()).startsWith(recording + " at ");
      assertThat(d.get("format").asText()).isEqualTo("thread-print");
      assertThat(d.get("pid").asLong()).as("the recording's JVM").isPositive();
    }
    assertThat(doc.get("waits").toString())
        .contains("dev.vtscope.workloads.LockOrderDeadlock.withMonitors");

    Cli.Result text = Cli.run("analyze", recording, "--thread-dumps");
    assertThat(text.out())
        .startsWith("vtscope: what the threads wait for, over 2 dumps")
        .contains("over monitors")
        .contains("holds-a-wants-b (platform #", "holds-b-wants-a (platform #");
  }

  /**
   * The scheduler's limits come from the recording, as a live JVM's come from the JVM: the workload
   * ran with parallelism 2 and a maximum pool of 4, which only its recorded properties say.
   */
  @Test
  void theSchedulersLimitsAreTheRecordings() throws Exception {
    String recording = shipped("jdk21", "carrier-starvation-object-wait");
    DumpAnalysis analysis =
        DumpInputs.analyzeRecorded(
            "analyze",
            RecordingInputs.resolve(List.of(Path.of(recording))),
            ReaderKind.VTSCOPE,
            new AnalysisOptions(GroupBy.CULPRIT, List.of(), List.of()));
    assertThat(analysis.scheduler()).isEqualTo(new SchedulerLimits(2, 4));
  }

  /**
   * JDK 21's Thread.print does not print what a mounted virtual thread runs: the report says how
   * many it cannot tell of, where it would otherwise say no carrier is held.
   */
  @Test
  void mountedThreadsWhoseFramesAreNotPrintedAreNotCountedAsFree() {
    String recording = shipped("jdk21", "carrier-starvation-object-wait");
    Cli.Result text = Cli.run("analyze", recording, "--thread-dumps");
    assertThat(text.exitCode()).as(text.err()).isZero();
    // the line is wrapped to the terminal's width
    assertThat(text.out().replaceAll("\\s+", " "))
        .contains(
            "0 virtual threads hold their carrier while blocked as far as the dump shows; 4 are"
                + " mounted with frames it does not print, each running or holding its carrier");
  }

  @Test
  void bothReadersReadTheSameDumps() {
    String recording = shipped("jdk25", "deadlock-monitor");
    Cli.Result own = Cli.run("analyze", recording, "--thread-dumps", "--format", "json");
    Cli.Result jdk =
        Cli.run("analyze", recording, "--thread-dumps", "--format", "json", "--reader", "jdk");
    assertThat(own.exitCode()).as(own.err()).isZero();
    assertThat(jdk.out()).isEqualTo(own.out());
  }

  @Test
  void aRecordingWithoutThreadDumpsIsSaidSo() throws Exception {
    Path file = dir.resolve("no-dumps.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadStart");
      recording.start();
      Thread.ofVirtual().start(() -> {}).join();
      recording.stop();
      recording.dump(file);
    }
    Cli.Result r = Cli.run("analyze", file.toString(), "--thread-dumps");
    assertThat(r.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(r.err().lines())
        .containsExactly(
            "vtscope analyze: "
                + file
                + " holds no jdk.ThreadDump event: record with it on (vtscope record does, once a"
                + " chunk; e.g. -XX:StartFlightRecording:jdk.ThreadDump#period=10s)");
  }

  @Test
  void dumpFilesNeedNoOption() throws Exception {
    Cli.Result r =
        Cli.run(
            "analyze",
            TestRecordings.repoRoot()
                .resolve("samples/jdk25/dumps/deadlock-monitor.dump.json")
                .toString(),
            "--thread-dumps");
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.err()).contains("--thread-dumps reads the thread dumps inside recordings");
  }

  @Test
  void aPinningReportFormatIsRefused() {
    Cli.Result r =
        Cli.run(
            "analyze",
            shipped("jdk25", "deadlock-monitor"),
            "--thread-dumps",
            "--format",
            "openmetrics");
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.err()).contains("thread dumps are reported as text, json, markdown or html");
  }
}
