package dev.vtscope.advice;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Words;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A thread dump shows what is pinned at one moment. Every carrier pinned by holders whose pins
 * never ended in the recording is a hang; the same by holders whose pins end, many times over, is a
 * dump taken while pins that end were under way.
 */
class PinnedNowFindingTest {

  /** Two virtual threads pinned now, each held where {@code held} pinned in the recording. */
  private static List<PinnedNow> pinnedNow(Attribution held) {
    return List.of(new PinnedNow(31, "", 21, held), new PinnedNow(32, "", 22, held));
  }

  /** Dumps that show {@code threads} pinned now, and nothing else. */
  private static DumpsNow pinned(List<PinnedNow> threads) {
    return new DumpsNow(threads, null, List.of(), null);
  }

  /** A recording in which com.acme.Dao.query pinned 400 times, 50 ms each. */
  private static Analysis recordingOfEndedPins() {
    return AnalysisBuilder.jdk(21)
        .parallelism(2)
        .pinned(
            site("com.acme.Dao", "query")
                .synchronizedBlock(40, 44)
                .pins(400, Duration.ofMillis(50)))
        .build();
  }

  private static Attribution attributionOf(Analysis a) {
    return a.pinned().sites().get(0).attribution();
  }

  @Test
  void holdersWhosePinsEndMakeALowFindingThatNamesThem() {
    Analysis a = recordingOfEndedPins();
    Advice advice =
        DumpAdvisor.addTo(Advisor.standard().advise(a), a, pinned(pinnedNow(attributionOf(a))));

    Finding now =
        advice.findings().stream()
            .filter(f -> f.id().equals("pinned-now"))
            .findFirst()
            .orElseThrow();
    assertThat(now.severity()).isEqualTo(Severity.LOW);
    assertThat(Words.title(now))
        .contains("2 virtual threads pinned at the moment of the thread dump")
        .contains("com.acme.Dao.query")
        .contains("400 pins of theirs that ended, the longest 50 ms");
    // the pinning the recording shows comes first
    assertThat(advice.findings().get(0).id()).isEqualTo("monitor-pinning");
  }

  @Test
  void everyCarrierHeldByHoldersThatNeverEndedIsHigh() {
    Analysis withPins = recordingOfEndedPins();
    Analysis without = AnalysisBuilder.jdk(21).parallelism(2).build();
    Advice advice =
        DumpAdvisor.addTo(
            Advisor.standard().advise(without),
            without,
            pinned(pinnedNow(attributionOf(withPins))));

    Finding now = advice.findings().get(0);
    assertThat(now.id()).isEqualTo("pinned-now");
    assertThat(now.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(now)).startsWith("Every carrier is pinned now");
    assertThat(advice.findings()).noneMatch(Finding::healthy);
  }

  @Test
  void noDumpReadMeansNotHealthyButPinnedNowUnknown() {
    Analysis quiet = AnalysisBuilder.jdk(21).parallelism(2).build();
    Advice healthy = Advisor.standard().advise(quiet);
    assertThat(healthy.findings()).anyMatch(Finding::healthy);

    Advice advice =
        DumpAdvisor.addTo(
            healthy,
            quiet,
            DumpsNow.unknown(
                Message.of(
                    "pinned-now-unknown.dump-failed", "why", "pid 42: Thread.print failed")));
    assertThat(advice.findings()).noneMatch(Finding::healthy);
    Finding unknown =
        advice.findings().stream()
            .filter(f -> f.id().equals("pinned-now-unknown"))
            .findFirst()
            .orElseThrow();
    assertThat(unknown.severity()).isEqualTo(Severity.INFO);
    assertThat(Words.title(unknown))
        .startsWith("Not called healthy: the carriers pinned now are unknown")
        .contains("the thread dump failed: pid 42: Thread.print failed");
    // findings of the events stand as they are
    Analysis pinning = recordingOfEndedPins();
    Advice problems = Advisor.standard().advise(pinning);
    assertThat(
            DumpAdvisor.addTo(
                problems,
                pinning,
                DumpsNow.unknown(
                    Message.of("pinned-now-unknown.dump-running", "took", Duration.ofSeconds(1)))))
        .isEqualTo(problems);
  }
}
