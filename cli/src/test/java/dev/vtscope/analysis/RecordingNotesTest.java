package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each recording-quality note appears on a real recording that calls for it, and only then. */
class RecordingNotesTest {

  private static List<String> noteIds(Analysis a) {
    return a.notes().stream().map(Note::id).toList();
  }

  @Test
  void theJdkReleasesComeFromWhatTheAnalysisIsGiven() throws Exception {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    java.util.function.Function<JdkReleases, Analysis> analyze =
        releases -> {
          try {
            return new Analyzer(
                    dev.vtscope.recording.ReaderKind.VTSCOPE.create(),
                    new AnalysisOptions(GroupBy.CULPRIT, List.of(), List.of(), List::of, releases))
                .analyze(
                    List.of(new dev.vtscope.recording.RecordingInput("p", List.of(sample), false)));
          } catch (RecordingProblemException e) {
            throw new IllegalStateException(e);
          }
        };
    assertThat(analyze.apply(JdkReleases.AS_SHIPPED).monitorsHoldCarriers()).isTrue();
    // were monitors to stop pinning in 21, this JDK 21 recording's monitor events would not count
    assertThat(analyze.apply(new JdkReleases(19, 21, 21, 24)).monitorsHoldCarriers()).isFalse();
  }

  @Test
  void carriersAreTheSchedulersWorkersNotItsTimerThread() throws Exception {
    // JDK 25 starts ForkJoinPool-1-delayScheduler in the CarrierThreads group: not a carrier
    Path healthy = TestRecordings.repoRoot().resolve("samples/jdk25/sleep-fanout.jfr");
    Analysis a = Reports.analyze("sleep-fanout.jfr", healthy, GroupBy.CULPRIT);
    assertThat(a.scheduler().carriersStarted()).isEqualTo(a.scheduler().parallelism().value());
    assertThat(noteIds(a)).doesNotContain("compensation");
    // JDK 21 compensates for carriers blocked in Object.wait: that note stays
    Path waits = TestRecordings.repoRoot().resolve("samples/jdk21/connection-pool-wait-notify.jfr");
    Analysis w = Reports.analyze("wait-notify.jfr", waits, GroupBy.CULPRIT);
    assertThat(w.scheduler().carriersStarted()).isGreaterThan(w.scheduler().parallelism().value());
    assertThat(noteIds(w)).contains("compensation");

    assertThat(SummaryBuilder.isWorker("ForkJoinPool-1-worker-12")).isTrue();
    assertThat(SummaryBuilder.isWorker("ForkJoinPool-1-delayScheduler")).isFalse();
    assertThat(SummaryBuilder.isWorker("ForkJoinPool-1-worker-")).isFalse();
    assertThat(SummaryBuilder.isWorker("worker-1")).isFalse();
  }

  @Test
  void aJdk17RecordingSaysThereAreNoVirtualThreads() throws Exception {
    Path jdk17 =
        Path.of(getClass().getResource("/recordings/jdk17-no-virtual-threads.jfr").toURI());
    Analysis a = Reports.analyze("jdk17.jfr", jdk17, GroupBy.STACK);
    assertThat(a.feature()).isEqualTo(17);
    assertThat(noteIds(a)).contains("no-virtual-threads").doesNotContain("no-pinning");
    assertThat(Reports.text(a)).contains("JDK 17 has no virtual threads");
  }

  /**
   * JDK 17 announces the DestroyJavaVM thread, which the launcher attaches at every normal exit,
   * with a jdk.ThreadStart event but never writes that thread's constant. The recording: {@code
   * java -XX:StartFlightRecording:filename=jdk17-normal-exit.jfr,settings=min.jfc -version} on JDK
   * 17, min.jfc enabling only jdk.ThreadStart (no stack), jdk.JVMInformation and
   * jdk.CPUInformation: no environment, processes, properties or paths.
   */
  @Test
  void aJdk17RecordingOfANormalExitIsNotCalledDamaged() throws Exception {
    Path jdk17 = Path.of(getClass().getResource("/recordings/jdk17-normal-exit.jfr").toURI());
    for (ReaderKind reader : ReaderKind.values()) {
      Analysis a =
          Reports.analyze(
              List.of(new RecordingInput("jdk17.jfr", List.of(jdk17), false)),
              GroupBy.STACK,
              reader);
      assertThat(a.feature()).as("%s", reader).isEqualTo(17);
      assertThat(noteIds(a))
          .as("%s", reader)
          .contains("no-virtual-threads")
          .doesNotContain("damaged-data");
    }
  }

  @Test
  void theThresholdIsSaidWhenItHidesShortPins() {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk25/class-init.jfr");
    Analysis a = Reports.analyze("class-init.jfr", sample, GroupBy.STACK);
    assertThat(a.settings().pinnedThresholdNanos()).isEqualTo(20_000_000L);
    assertThat(a.notes())
        .filteredOn(n -> n.id().equals("threshold"))
        .singleElement()
        .satisfies(n -> assertThat(Words.message(n)).contains("20 ms"));
  }

  @Test
  void noThresholdNoteAtThresholdZero() {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    Analysis a = Reports.analyze("p.jfr", sample, GroupBy.STACK);
    assertThat(a.settings().pinnedThresholdNanos()).isZero();
    assertThat(noteIds(a)).doesNotContain("threshold", "no-pinning", "truncated-stacks");
  }

  @Test
  void truncatedStacksAreCountedAndTheStackDepthToUseIsNamed() {
    Path recording =
        TestRecordings.recordWorkload(
            TestRecordings.currentJava(),
            List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            List.of("-XX:FlightRecorderOptions:stackdepth=3"),
            "class-init",
            "--threads",
            "2",
            "--init",
            "30ms");
    Analysis a = Reports.analyze("shallow.jfr", recording, GroupBy.STACK);
    assertThat(a.pinned().events()).isPositive();
    assertThat(a.pinned().truncatedStacks()).isEqualTo(a.pinned().events());
    // Stated by jdk.StringFlag (FlightRecorderOptions), and equal to the truncated stacks' length.
    assertThat(a.settings().stackDepth()).isEqualTo(3);
    assertThat(a.notes())
        .filteredOn(n -> n.id().equals("truncated-stacks"))
        .singleElement()
        .satisfies(
            n ->
                assertThat(Words.message(n))
                    .contains("(stack depth 3)")
                    .contains("stackdepth=256"));
  }

  @Test
  void aDisabledPinnedEventIsSaidPlainly() {
    Analysis a =
        Reports.analyze("off.jfr", TestRecordings.classInitWithPinnedEventOff(), GroupBy.STACK);
    assertThat(a.settings().pinnedEnabled()).isFalse();
    assertThat(noteIds(a)).contains("pinned-disabled").doesNotContain("no-pinning");
  }
}
