package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.Frame.ClassLoaderKind;
import dev.vtscope.recording.RecordedStack;
import java.util.List;
import org.junit.jupiter.api.Test;

class SiteCollectorTest {

  private static Frame frame(String cls, String method, int line, ClassLoaderKind loader) {
    return new Frame(cls, method, "()V", line, 0, "Interpreted", 0, loader);
  }

  private static final Frame SLEEP = frame("java.lang.Thread", "sleep", 10, ClassLoaderKind.BOOT);
  private static final Frame APP_A =
      frame("com.example.A", "work", 42, ClassLoaderKind.APPLICATION);
  private static final Frame APP_A_OTHER_LINE =
      frame("com.example.A", "work", 43, ClassLoaderKind.APPLICATION);
  private static final Frame APP_B = frame("com.example.B", "run", 7, ClassLoaderKind.APPLICATION);

  private static SiteCollector.Grouping grouping(GroupBy groupBy) {
    return SiteGroupings.pinned(
        groupBy, new Attributor(ClassBytesSource.none(), new FrameOwnership(List.of())));
  }

  @Test
  void stackGroupingSeparatesStacksAndSortsByTotalTime() {
    SiteCollector collector = new SiteCollector();
    RecordedStack a = new RecordedStack(List.of(SLEEP, APP_A, APP_B), false);
    RecordedStack b = new RecordedStack(List.of(SLEEP, APP_B), false);
    collector.add(0, 10, 1, a, null, null, null);
    collector.add(5, 30, 2, a, null, null, null);
    collector.add(7, 25, 3, b, null, null, null);

    List<Site> sites = collector.sites(grouping(GroupBy.STACK));

    assertThat(sites).hasSize(2);
    Site first = sites.get(0);
    assertThat(first.durations().totalNanos()).isEqualTo(40);
    assertThat(first.durations().count()).isEqualTo(2);
    assertThat(first.durations().maxNanos()).isEqualTo(30);
    assertThat(first.durations().minNanos()).isEqualTo(10);
    assertThat(first.virtualThreads()).isEqualTo(2);
    assertThat(first.firstSeenNanos()).isZero();
    assertThat(first.lastSeenNanos()).isEqualTo(5);
    assertThat(first.topApplicationFrame()).isEqualTo(APP_A);
    assertThat(sites.get(1).topApplicationFrame()).isEqualTo(APP_B);
  }

  @Test
  void oneStackWithReasonsInTurnMakesOneGroupPerReasonWhateverTheOrder() {
    SiteCollector collector = new SiteCollector();
    RecordedStack s = new RecordedStack(List.of(SLEEP, APP_A), false);
    String[] reasons = {"Native frame", "Monitor held", "Native frame", null, "Monitor held"};
    long[] durations = {10, 20, 10, 30, 20}; // each reason's own, to tell its events apart
    for (int i = 0; i < 40; i++) {
      // the same text in another instance, as another chunk would read it
      String reason = reasons[i % reasons.length];
      collector.add(
          i, durations[i % 5], i, s, reason == null ? null : new String(reason), null, null);
    }
    // a second instance of the same stack, as another chunk's decoder makes it
    collector.add(100, 30, 100, new RecordedStack(List.of(SLEEP, APP_A), false), null, null, null);

    List<Site> sites = collector.sites(grouping(GroupBy.REASON));

    assertThat(sites)
        .extracting(
            site ->
                site.reason()
                    + " "
                    + site.durations().count()
                    + " x "
                    + site.durations().minNanos(),
            site -> site.durations().maxNanos() == site.durations().minNanos())
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Native frame 16 x 10", true),
            org.assertj.core.groups.Tuple.tuple("Monitor held 16 x 20", true),
            org.assertj.core.groups.Tuple.tuple("null 9 x 30", true));
  }

  @Test
  void topFrameGroupingMergesLinesOfOneMethodAsJfrViewDoes() {
    SiteCollector collector = new SiteCollector();
    collector.add(
        0, 10, 1, new RecordedStack(List.of(SLEEP, APP_A, APP_B), false), null, null, null);
    collector.add(
        0, 20, 1, new RecordedStack(List.of(SLEEP, APP_A_OTHER_LINE), false), null, null, null);
    collector.add(0, 5, 1, new RecordedStack(List.of(SLEEP), false), null, null, null);

    List<Site> sites = collector.sites(grouping(GroupBy.TOP_FRAME));

    assertThat(sites).hasSize(2);
    assertThat(sites.get(0).durations().count()).isEqualTo(2);
    assertThat(sites.get(0).virtualThreads()).isEqualTo(1);
    assertThat(sites.get(1).topApplicationFrame()).isNull();
  }

  @Test
  void reasonGroupingCountsReasonsAndOperations() {
    SiteCollector collector = new SiteCollector();
    RecordedStack s = new RecordedStack(List.of(APP_A), false);
    collector.add(0, 10, 1, s, "Native or VM frame on stack", "LockSupport.park", null);
    collector.add(0, 10, 2, s, "Native or VM frame on stack", "Object.wait", null);
    collector.add(0, 10, 3, s, "Native or VM frame on stack", "Object.wait", null);

    Site site = collector.sites(grouping(GroupBy.REASON)).get(0);

    assertThat(site.reason()).isEqualTo("Native or VM frame on stack");
    assertThat(site.blockingOperation()).isEqualTo("Object.wait");
    assertThat(site.blockingOperations())
        .containsExactly(
            java.util.Map.entry("Object.wait", 2L), java.util.Map.entry("LockSupport.park", 1L));
  }

  @Test
  void percentilesStayWithinMinAndMaxAndNearTheTruth() {
    DurationStatistics stats = new DurationStatistics();
    for (int i = 1; i <= 1000; i++) {
      stats.add(i * 1_000_000L);
    }
    DurationSummary d = stats.summary();
    assertThat(d.count()).isEqualTo(1000);
    assertThat(d.totalNanos()).isEqualTo(500_500L * 1_000_000L);
    assertThat(d.p50Nanos()).isBetween(499_000_000L, 501_000_000L);
    assertThat(d.p99Nanos()).isBetween(989_000_000L, 991_000_000L);
    assertThat(d.maxNanos()).isEqualTo(1_000_000_000L);
    assertThat(d.minNanos()).isEqualTo(1_000_000L);
  }
}
