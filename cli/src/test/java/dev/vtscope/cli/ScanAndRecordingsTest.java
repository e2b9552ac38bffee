package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A scan and recordings of the program it scanned agree: {@code analyze --scan} marks the sites the
 * scan predicted, {@code scan --recording} ranks the findings the recordings hit first. The oracle
 * for what a finding was hit by is the analysis' own JSON of the same recording.
 */
class ScanAndRecordingsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final String WITH_MONITOR = "dev.vtscope.workloads.SharedLockPinning.withMonitor";

  /** The sections of the analysis JSON whose sites a scan can predict. */
  private static final List<String> SECTIONS = List.of("pinned", "monitorEnter", "monitorWait");

  /** A JDK 21 recording of a synchronized block that pins: the culprit is withMonitor. */
  private static Path pinning() {
    return TestRecordings.synchronizedPinningOnJdk21();
  }

  private static JsonNode json(String... args) throws Exception {
    Cli.Result r = Cli.run(args);
    assertThat(r.exitCode()).as(r.err()).isZero();
    return MAPPER.readTree(r.out());
  }

  /** The pinned and monitor sites of an analysis document. */
  private static List<JsonNode> sites(JsonNode analysis) {
    List<JsonNode> sites = new ArrayList<>();
    for (String section : SECTIONS) {
      analysis.path(section).path("sites").forEach(sites::add);
    }
    return sites;
  }

  private static String culprit(JsonNode site) {
    return site.path("culprit").path("class").asText()
        + "."
        + site.path("culprit").path("method").asText();
  }

  @Test
  void analyzeWithScanMarksTheSynchronizedBlockThatPinnedAsPredicted() throws Exception {
    String recording = pinning().toString();
    String classPath = TestRecordings.workloadsClassPath();
    JsonNode doc =
        json("analyze", recording, "--classpath", classPath, "--scan", "--format", "json");
    List<JsonNode> held = sites(doc).stream().filter(s -> culprit(s).equals(WITH_MONITOR)).toList();
    assertThat(held).as("the recording's sites held by withMonitor").isNotEmpty();
    for (JsonNode site : held) {
      JsonNode predicted = site.get("predictedByScan");
      assertThat(predicted.isObject()).as(site.path("key").asText()).isTrue();
      assertThat(predicted.path("kind").asText()).isEqualTo("SYNCHRONIZED_BLOCK");
      assertThat(predicted.path("chain").get(0).path("method").asText()).isEqualTo("withMonitor");
      assertThat(
              predicted
                  .path("chain")
                  .get(predicted.path("chain").size() - 1)
                  .path("method")
                  .asText())
          .isEqualTo("sleep");
    }
    // what the recording did not hit: the scan's other risks, never the one it did
    JsonNode scan = doc.get("scan");
    assertThat(scan.path("findingsHit").asInt()).isEqualTo(1);
    List<String> notHit = new ArrayList<>();
    scan.path("notHit")
        .forEach(f -> notHit.add(f.path("className").asText() + "." + f.path("method").asText()));
    assertThat(notHit)
        .doesNotContain(WITH_MONITOR)
        .contains("dev.vtscope.workloads.ConnectionPoolStall$MonitorPool.checkout");
    scan.path("notHit")
        .forEach(f -> assertThat(f.path("severity").asText()).isIn("high", "medium"));

    Cli.Result text = Cli.run("analyze", recording, "--classpath", classPath, "--scan");
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("predicted by scan (")
        .contains("Scan findings the recording did not hit (high and medium");
    Cli.Result markdown =
        Cli.run("analyze", recording, "--classpath", classPath, "--scan", "--format", "markdown");
    assertThat(markdown.out()).contains("synchronized block, predicted by scan");

    // without --scan nothing of it: the report is as it was
    JsonNode plain = json("analyze", recording, "--classpath", classPath, "--format", "json");
    assertThat(plain.has("scan")).isFalse();
    sites(plain).forEach(s -> assertThat(s.has("predictedByScan")).isFalse());
  }

  @Test
  void scanWithARecordingRanksTheFindingItHitFirstWithTheAnalysisFigures() throws Exception {
    String recording = pinning().toString();
    String classPath = TestRecordings.workloadsClassPath();
    JsonNode analysis = json("analyze", recording, "--classpath", classPath, "--format", "json");
    long events = 0;
    long nanos = 0;
    for (JsonNode site : sites(analysis)) {
      if (culprit(site).equals(WITH_MONITOR)) {
        events += site.path("events").asLong();
        nanos += site.path("totalNanos").asLong();
      }
    }
    assertThat(events).as("the recording's events held by withMonitor").isPositive();

    JsonNode scan = json("scan", classPath, "--recording", recording, "--format", "json");
    assertThat(scan.path("findingsHit").asInt()).isEqualTo(1);
    JsonNode first = scan.path("findings").get(0);
    assertThat(first.path("className").asText() + "." + first.path("method").asText())
        .isEqualTo(WITH_MONITOR);
    assertThat(first.path("hit").path("events").asLong()).isEqualTo(events);
    assertThat(first.path("hit").path("pinnedNanos").asLong()).isEqualTo(nanos);
    // the rest in the scan's own order, none marked
    JsonNode alone = json("scan", classPath, "--format", "json");
    List<String> rest = new ArrayList<>();
    alone
        .path("findings")
        .forEach(
            f ->
                rest.add(
                    f.path("className").asText()
                        + "."
                        + f.path("method").asText()
                        + f.path("lines")));
    rest.remove(
        first.path("className").asText()
            + "."
            + first.path("method").asText()
            + first.path("lines"));
    List<String> ranked = new ArrayList<>();
    for (int i = 1; i < scan.path("findings").size(); i++) {
      JsonNode f = scan.path("findings").get(i);
      assertThat(f.get("hit").isNull()).isTrue();
      ranked.add(f.path("className").asText() + "." + f.path("method").asText() + f.path("lines"));
    }
    assertThat(ranked).isEqualTo(rest);

    Cli.Result text = Cli.run("scan", classPath, "--recording", recording);
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("the recordings hit 1 finding, listed first")
        .contains("hit: " + events + " events, ");
    assertThat(text.out().indexOf("SharedLockPinning.withMonitor"))
        .isLessThan(text.out().indexOf("ConnectionPoolStall$MonitorPool.checkout"));
  }

  @Test
  void recordingsOfPinsTheScanDidNotPredictMarkNothingAndHitNothing() throws Exception {
    String classPath = TestRecordings.workloadsClassPath();
    // counting primes on JDK 21: the carrier is held by running, which no scan finds
    Path cpu =
        TestRecordings.recordWorkload(
            TestRecordings.jdk21Java(), "0ms", "cpu-bound", "--tasks", "4", "--limit", "50000");
    // the same synchronized block on JDK 24+, where it no longer pins
    Path unpinned =
        TestRecordings.recordWorkload(
            TestRecordings.jdk24PlusJava(),
            "0ms",
            "pinning",
            "--variant",
            "synchronized",
            "--tasks",
            "40");
    for (Path recording : List.of(cpu, unpinned)) {
      JsonNode doc =
          json(
              "analyze",
              recording.toString(),
              "--classpath",
              classPath,
              "--scan",
              "--format",
              "json");
      sites(doc)
          .forEach(s -> assertThat(s.get("predictedByScan").isNull()).as(culprit(s)).isTrue());
      assertThat(doc.path("scan").path("findingsHit").asInt()).isZero();
      JsonNode scan =
          json("scan", classPath, "--recording", recording.toString(), "--format", "json");
      assertThat(scan.path("findingsHit").asInt()).as(recording.toString()).isZero();
      scan.path("findings").forEach(f -> assertThat(f.get("hit").isNull()).isTrue());
    }
  }

  @Test
  void aPinTheScanDidNotFindIsNoHit() throws Exception {
    // at depth 1 the scan sees only the calls withMonitor's block makes itself: its own sleep
    // method, not the Thread.sleep under it, so it does not find the block that pinned
    String recording = pinning().toString();
    String classPath = TestRecordings.workloadsClassPath();
    JsonNode analysis = json("analyze", recording, "--classpath", classPath, "--format", "json");
    assertThat(sites(analysis)).anyMatch(s -> culprit(s).equals(WITH_MONITOR));
    JsonNode scan =
        json("scan", classPath, "--depth", "1", "--recording", recording, "--format", "json");
    assertThat(scan.path("findings")).isNotEmpty();
    assertThat(scan.path("findingsHit").asInt()).isZero();
    scan.path("findings").forEach(f -> assertThat(f.get("hit").isNull()).isTrue());
  }

  @Test
  void scanNeedsAClassPathAndThreadDumpsHaveNoSitesToMark() {
    Cli.Result none = Cli.run("analyze", pinning().toString(), "--scan");
    assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(none.err().strip())
        .startsWith("vtscope analyze: --scan scans the --classpath")
        .doesNotContain("\n");
    Cli.Result notARecording =
        Cli.run(
            "scan",
            TestRecordings.workloadsClassPath(),
            "--recording",
            TestRecordings.repoRoot().resolve("README.md").toString());
    assertThat(notARecording.exitCode()).isNotZero();
    assertThat(notARecording.err().strip()).startsWith("vtscope scan: ").doesNotContain("\n");
  }
}
