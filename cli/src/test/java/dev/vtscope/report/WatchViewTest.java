package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.IntervalStream;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.recording.CpuFacts;
import java.util.List;
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
    return String.join("\n", new WatchView(0, 10).lines(s, List.of(), SECOND));
  }

  private static String screen(LiveSnapshot s) {
    return String.join(
        "\n", new WatchView(0, 10).screen("test", s, List.of(), Set.of(), SECOND, SECOND));
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

  @Test
  void theSchedulersOwnCountStandsInForAnUnrecordedOne() {
    LiveSnapshot s = snapshot(live(), null, new LiveSnapshot.Scheduler(3, 3, 1, 0));
    assertThat(lines(s)).contains("held 0/3", "mounted 1/3");
  }
}
