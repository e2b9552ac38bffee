package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.IntervalStream;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.recording.CpuFacts;
import dev.vtscope.testing.AnalysisBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@code vtscope watch} shows of the scheduler's parallelism, known or not. */
class WatchViewTest {

  private static final long SECOND = 1_000_000_000L;

  private static IntervalStream live() {
    return IntervalStream.keepingTotal(
        new AnalysisOptions(GroupBy.CULPRIT, List.of(), List.of(), List::of), "test", null, 0);
  }

  private static LiveSnapshot snapshot(
      IntervalStream live, List<PinnedNow> pinnedNow, LiveSnapshot.Scheduler scheduler) {
    return LiveSnapshot.of(live.next(SECOND), pinnedNow, scheduler, null);
  }

  private static String lines(LiveSnapshot s) {
    return String.join("\n", new WatchView(0, 10).lines(s, List.of(), Set.of(), Map.of(), SECOND));
  }

  private static String screen(LiveSnapshot s) {
    return String.join(
        "\n",
        new WatchView(0, 10).screen("test", s, List.of(), Set.of(), Map.of(), SECOND, SECOND));
  }

  @Test
  void anUnknownParallelismIsSaidNotShownAsZero() {
    LiveSnapshot s = snapshot(live(), List.of(), null);
    assertThat(lines(s))
        .contains("held 0 (parallelism unknown)", "pinned now 0 (parallelism unknown)")
        .doesNotContain("/0");
    assertThat(screen(s))
        .contains("carriers  0 (parallelism unknown) held at once")
        .doesNotContain("of 0");
  }

  @Test
  void theParallelismComesFromTheRecordedCpus() {
    IntervalStream live = live();
    live.cpu(new CpuFacts(4, 0, null));
    LiveSnapshot s = snapshot(live, List.of(), null);
    assertThat(lines(s)).contains("held 0/4", "pinned now 0/4");
    assertThat(screen(s)).contains("carriers  0 of 4 held at once");
  }

  /** A pin that has not ended wrote no event, yet holds its carrier: the count says so too. */
  @Test
  void carriersPinnedNowAreHeldInTheInterval() {
    IntervalStream live = live();
    live.cpu(new CpuFacts(2, 0, null));
    LiveSnapshot s =
        snapshot(
            live, List.of(new PinnedNow(31, "", 21, null), new PinnedNow(32, "", 22, null)), null);
    assertThat(lines(s)).contains("held 2/2", "pinned now 2/2").doesNotContain("held 0/2");
    assertThat(screen(s)).contains("carriers  2 of 2 held at once");
  }

  /** A finding seen before whose severity changed is said as a change, not as a new finding. */
  @Test
  void aSeverityChangeIsSaidAsOne() {
    Finding f =
        Advisor.standard()
            .advise(
                AnalysisBuilder.jdk(21)
                    .pinned(
                        AnalysisBuilder.site("com.acme.Dao", "query")
                            .synchronizedBlock(40, 44)
                            .pins(400, java.time.Duration.ofMillis(50)))
                    .build())
            .findings()
            .get(0);
    LiveSnapshot s = snapshot(live(), List.of(), null);
    WatchView view = new WatchView(0, 10);
    Map<String, Severity> was = Map.of(f.id(), Severity.INFO);

    String lines = String.join("\n", view.lines(s, List.of(f), Set.of(), was, SECOND));
    assertThat(lines)
        .contains("finding now [" + f.severity().label() + "], was [info] ")
        .doesNotContain("new finding");
    assertThat(String.join("\n", view.screen("test", s, List.of(f), Set.of(), was, SECOND, SECOND)))
        .contains(" ~ [" + f.severity().label() + "]")
        .contains("(was info) ");
    assertThat(String.join("\n", view.lines(s, List.of(f), Set.of(f.id()), Map.of(), SECOND)))
        .contains("new finding [" + f.severity().label() + "] ");
  }

  @Test
  void theSchedulersOwnCountStandsInForAnUnrecordedOne() {
    LiveSnapshot s = snapshot(live(), null, new LiveSnapshot.Scheduler(3, 3, 1, 0));
    assertThat(lines(s)).contains("held 0/3", "mounted 1/3");
  }
}
