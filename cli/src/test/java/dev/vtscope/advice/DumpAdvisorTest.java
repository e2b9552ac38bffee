package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Words;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A running JVM's thread dumps beside its recording: where the dumps show carriers held now, what
 * the events alone say of nothing seen gives way, whichever finding of the dumps shows it.
 */
class DumpAdvisorTest {

  /** A quiet recording of 2 s: nothing pinned, nothing seen, two carriers. */
  private static Analysis shortQuietRecording() {
    return AnalysisBuilder.jdk(21).parallelism(2).recorded(Duration.ofSeconds(2)).build();
  }

  private static List<String> ids(Advice advice) {
    return advice.findings().stream().map(Finding::id).toList();
  }

  private static List<String> reasoning(Advice advice) {
    return advice.carrierPool().reasoning().stream().map(Message::key).toList();
  }

  @Test
  void theEventsAloneSayNothingWasSeen() {
    Analysis quiet = shortQuietRecording();
    Advice events = Advisor.standard().advise(quiet);

    assertThat(ids(events)).contains(HealthyRule.ID, RecordingQualityRule.SHORT_ID);
    assertThat(reasoning(events)).contains("pool.none-held.monitors", "pool.keep");
  }

  /**
   * A recording of a hang whose pins never ended: its last thread dumps show the carriers held, and
   * the pool's advice says so rather than that no carrier was pinned.
   */
  @Test
  void carriersHeldWhenTheRecordingEndedLeaveNoWordOfNothingPinned() {
    Analysis hang =
        AnalysisBuilder.jdk(21)
            .parallelism(2)
            .recorded(Duration.ofSeconds(5))
            .carriersAtEnd(
                new CarriersAtEnd(
                    5_000_000_000L, 2, 2, false, List.of(), 2, 0, 1_000_000_000L, 0, 0))
            .build();
    Advice advice = Advisor.standard().advise(hang);

    assertThat(reasoning(advice))
        .doesNotContain("pool.none-held.monitors", "pool.none-held.pinned")
        .contains("pool.none-ended.at-end");
    assertThat(Words.reasoning(advice.carrierPool()))
        .noneMatch(line -> line.contains("No carrier was pinned"))
        .anyMatch(line -> line.contains("last thread dumps show 2 carriers held when it ended"));
  }

  @Test
  void everyCarrierPinnedNowLeavesNoWordOfNothingSeen() {
    Analysis quiet = shortQuietRecording();
    List<PinnedNow> pinned =
        List.of(new PinnedNow(31, "", 21, null), new PinnedNow(32, "", 22, null));

    Advice advice =
        DumpAdvisor.addTo(
            Advisor.standard().advise(quiet), quiet, new DumpsNow(pinned, null, List.of(), null));

    assertThat(ids(advice))
        .startsWith(PinnedNowFinding.ID)
        .doesNotContain(HealthyRule.ID, RecordingQualityRule.SHORT_ID);
    assertThat(reasoning(advice))
        .doesNotContain("pool.none-held.monitors", "pool.keep")
        .contains("pool.none-ended", "pool.held-now");
    assertThat(Words.reasoning(advice.carrierPool()))
        .noneMatch(line -> line.contains("No carrier was pinned"))
        .anyMatch(line -> line.contains("the thread dump shows 2 carriers held now"));
  }

  @Test
  void someCarriersPinnedNowAreSaidLeftOutOfThePoolsFigures() {
    Analysis quiet = shortQuietRecording();
    List<PinnedNow> pinned = List.of(new PinnedNow(31, "", 21, null));

    Advice advice =
        DumpAdvisor.addTo(
            Advisor.standard().advise(quiet), quiet, new DumpsNow(pinned, null, List.of(), null));

    assertThat(ids(advice)).doesNotContain(HealthyRule.ID, RecordingQualityRule.SHORT_ID);
    // one of two carriers: the other may have been free all along
    assertThat(reasoning(advice)).contains("pool.none-ended", "pool.keep");
  }

  /** Pins the dump caught in passing end: the pool's word that a carrier was free stands. */
  @Test
  void everyCarrierPinnedInPassingLeavesThePoolsWord() {
    Analysis pinning =
        AnalysisBuilder.jdk(21)
            .parallelism(2)
            .pinned(
                AnalysisBuilder.site("com.acme.Dao", "query")
                    .synchronizedBlock(40, 44)
                    .pins(400, Duration.ofMillis(50)))
            .carriersHeld(1, Duration.ZERO)
            .build();
    var held = pinning.pinned().sites().get(0).attribution();
    List<PinnedNow> pinned =
        List.of(new PinnedNow(31, "", 21, held), new PinnedNow(32, "", 22, held));
    Advice events = Advisor.standard().advise(pinning);

    Advice advice = DumpAdvisor.addTo(events, pinning, new DumpsNow(pinned, null, List.of(), null));

    assertThat(advice.findings())
        .anySatisfy(
            f -> {
              assertThat(f.id()).isEqualTo(PinnedNowFinding.ID);
              assertThat(f.severity()).isEqualTo(Severity.LOW);
            });
    assertThat(reasoning(events)).contains("pool.held-at-once");
    assertThat(reasoning(advice)).doesNotContain("pool.held-now");
    assertThat(reasoning(advice).stream().filter(k -> k.startsWith("pool.keep")))
        .isEqualTo(reasoning(events).stream().filter(k -> k.startsWith("pool.keep")).toList());
  }

  @Test
  void dumpsThatShowNothingLeaveTheAdviceAsItIs() {
    Analysis quiet = shortQuietRecording();
    Advice events = Advisor.standard().advise(quiet);

    assertThat(DumpAdvisor.addTo(events, quiet, new DumpsNow(List.of(), null, List.of(), null)))
        .isSameAs(events);
  }

  @Test
  void aWatchedRecordingIsNeverCalledShort() {
    Advice events = Advisor.standard().advise(shortQuietRecording());

    assertThat(ids(events.withoutRecordingLength()))
        .doesNotContain(RecordingQualityRule.SHORT_ID)
        .contains(HealthyRule.ID);
  }
}
