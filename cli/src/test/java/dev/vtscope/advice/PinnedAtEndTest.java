package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recordings of a JVM that ends with every carrier pinned ({@code HungCarriersProgram}: two virtual
 * threads sleep in class initialisers, parallelism 2, and the program exits while they sleep), made
 * by real JVMs of JDK 21 and of the JDK running the tests: no pinned event, yet the recording's
 * last thread dump shows the carriers held, and the report must not call it healthy.
 */
class PinnedAtEndTest {

  private static Analysis analyze(Path recording, ReaderKind reader) {
    try {
      return Reports.analyze(RecordingInputs.resolve(List.of(recording)), GroupBy.CULPRIT, reader);
    } catch (InputProblemException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Finding> findings(Analysis a) {
    return Advisor.standard().advise(a).findings();
  }

  @Test
  void currentJdkNamesTheClassInitialisersThatHoldEveryCarrier() {
    Path recording = TestRecordings.recordHungCarriers(TestRecordings.currentJava(), "held");
    for (ReaderKind reader : ReaderKind.values()) {
      Analysis a = analyze(recording, reader);
      assertThat(a.pinned().events()).as("no pin ended").isZero();
      assertThat(a.carriersAtEnd()).isNotNull();
      List<Finding> findings = findings(a);
      if (Runtime.version().feature() < 24) {
        // JDK 21-23 (which run the suite too) print no frames of virtual threads, and the dump
        // when the chunk began came before the hold: the report says it cannot tell
        assertUndetermined(a, findings);
        continue;
      }
      Finding first = findings.get(0);
      assertThat(first.id()).as(reader + ": " + findings).isEqualTo(PinnedAtEndRule.ID);
      assertThat(first.severity()).isEqualTo(expectedSeverity(a));
      assertThat(findings).noneMatch(Finding::healthy);
      // JDK 24+ prints the mounted virtual threads' frames: the holders are named
      assertThat(a.carriersAtEnd().stacksPrinted()).isTrue();
      assertThat(a.carriersAtEnd().pinned()).hasSize(2);
      assertThat(a.carriersAtEnd().pinned())
          .extracting(p -> p.attribution().culprit().kind())
          .containsOnly(CulpritKind.CLASS_INIT);
      assertThat(a.carriersAtEnd().pinned())
          .extracting(PinnedNow::attribution)
          .extracting(at -> at.culprit().className())
          .containsExactlyInAnyOrder(
              "dev.vtscope.testing.HungCarriersProgram$FirstTable",
              "dev.vtscope.testing.HungCarriersProgram$SecondTable");
      // the holders are named, but a hang of every carrier is never excused by check --allow
      assertThat(Words.title(first)).contains("HungCarriersProgram$FirstTable.<clinit>");
      assertThat(first.classes()).isEmpty();
      assertThat(Reports.text(a))
          .containsPattern("at the end +2 of [23] carriers carrying a virtual thread: 2 blocked");
    }
  }

  /**
   * High when both carriers are held; when the scheduler started a third to compensate (JDK 21
   * does, now and then, for a pinned sleep) and it is free, the other virtual threads still run:
   * medium, as the hold lasted since the dump before, or low without one.
   */
  private static Severity expectedSeverity(Analysis a) {
    var end = a.carriersAtEnd();
    if (end.held() >= Math.max(2, end.carriers())) {
      return Severity.HIGH;
    }
    return end.unchanged() > 0 ? Severity.MEDIUM : Severity.LOW;
  }

  private static void assertUndetermined(Analysis a, List<Finding> findings) {
    assertThat(a.carriersAtEnd().undetermined()).isEqualTo(2);
    // (the scheduler may have started a third carrier, which carries nothing)
    assertThat(Reports.text(a))
        .containsPattern(
            "at the end +2 of [23] carriers carrying a virtual thread: 2 unknown \\(the dump shows"
                + " no frames\\)");
    assertThat(findings).noneMatch(f -> f.id().equals(PinnedAtEndRule.ID));
    // On a loaded machine the program's short pins before the hold can make a finding of their
    // own, and then there is no healthy verdict; when there is one, it says what to do if the
    // program hangs.
    List<Finding> healthy = findings.stream().filter(Finding::healthy).toList();
    assertThat(healthy).as(findings.toString()).hasSizeLessThanOrEqualTo(1);
    healthy.forEach(
        h ->
            assertThat(h.actions())
                .anySatisfy(
                    m -> assertThat(m.key()).isEqualTo("healthy.action.if-it-hangs.undetermined")));
  }

  @Test
  void jdk21WithPeriodicDumpsSeesTheSameVirtualThreadsStay() throws Exception {
    Path recording =
        TestRecordings.recordHungCarriers(
            TestRecordings.jdk21Java(), "held", "jdk.ThreadDump#period=500ms");
    Analysis a = analyze(recording, ReaderKind.VTSCOPE);
    assertThat(a.carriersAtEnd().stacksPrinted()).isFalse();
    assertThat(a.carriersAtEnd().unchanged()).isEqualTo(2);
    assertThat(a.carriersAtEnd().beforeNanos()).isPositive();
    Finding first = findings(a).get(0);
    assertThat(first.id()).isEqualTo(PinnedAtEndRule.ID);
    assertThat(first.severity()).isEqualTo(expectedSeverity(a));
    // the recording names its JVM's process, which the advice asks directly
    assertThat(a.jvm().pid()).isPositive();
    assertThat(Words.actions(first))
        .anySatisfy(x -> assertThat(x).contains("vtscope watch --pid " + a.jvm().pid()));
    // the JSON says the same, and both readers agree on it
    String json = Reports.json(a);
    assertThat(json).isEqualTo(Reports.json(analyze(recording, ReaderKind.JDK)));
    JsonNode end = new ObjectMapper().readTree(json).path("carriersAtEnd");
    assertThat(end.path("heldBlocked").asInt()).isEqualTo(2);
    assertThat(end.path("previousThreadDumpAt").isTextual()).isTrue();
  }

  @Test
  void jdk21WithoutADumpOfTheHoldBeforeSaysItCannotTell() {
    // vtscope's settings: a dump when the chunk begins, before the hold, and one when it ends
    Path recording = TestRecordings.recordHungCarriers(TestRecordings.jdk21Java(), "held");
    Analysis a = analyze(recording, ReaderKind.VTSCOPE);
    assertThat(a.carriersAtEnd().beforeNanos()).isPositive();
    assertUndetermined(a, findings(a));
  }

  @Test
  void theFixedTwinEndsWithNoCarrierHeld() {
    for (Path java : List.of(TestRecordings.currentJava(), TestRecordings.jdk21Java())) {
      Path recording = TestRecordings.recordHungCarriers(java, "released");
      Analysis a = analyze(recording, ReaderKind.VTSCOPE);
      assertThat(a.carriersAtEnd()).as("the end-of-chunk dump of " + java).isNotNull();
      assertThat(a.carriersAtEnd().held()).isZero();
      assertThat(a.carriersAtEnd().undetermined()).isZero();
      // (the initialisers' short pins ended, and are findings of their own)
      assertThat(findings(a)).noneMatch(f -> f.id().equals(PinnedAtEndRule.ID));
    }
  }
}
