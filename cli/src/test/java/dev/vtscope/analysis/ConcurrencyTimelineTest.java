package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConcurrencyTimelineTest {

  @Test
  void noIntervalsMeansNoConcurrency() {
    Concurrency c = new ConcurrencyTimeline().compute(2);
    assertThat(c.peak()).isZero();
    assertThat(c.saturatedNanos()).isZero();
  }

  @Test
  void overlappingIntervalsAddUpAndSaturationIsTheOverlap() {
    ConcurrencyTimeline timeline = new ConcurrencyTimeline();
    // Arrive in end order, as JFR writes them: the long pin that began first comes last.
    timeline.add(10, 20);
    timeline.add(15, 30);
    timeline.add(0, 100);
    Concurrency c = timeline.compute(2);
    assertThat(c.peak()).isEqualTo(3);
    // >= 2 carriers pinned from 10 to 30.
    assertThat(c.saturatedNanos()).isEqualTo(20);
    assertThat(c.nanosAtLevel()).containsExactly(0L, 80L, 15L, 5L);
  }

  @Test
  void touchingIntervalsDoNotOverlap() {
    ConcurrencyTimeline timeline = new ConcurrencyTimeline();
    timeline.add(0, 10);
    timeline.add(10, 20);
    Concurrency c = timeline.compute(2);
    assertThat(c.peak()).isEqualTo(1);
    assertThat(c.saturatedNanos()).isZero();
    assertThat(c.nanosAtLevel()).containsExactly(0L, 20L);
  }

  @Test
  void growsPastItsInitialCapacity() {
    ConcurrencyTimeline timeline = new ConcurrencyTimeline();
    for (int i = 0; i < 5000; i++) {
      timeline.add(i * 10L, i * 10L + 15);
    }
    Concurrency c = timeline.compute(2);
    assertThat(c.peak()).isEqualTo(2);
    assertThat(c.saturatedNanos()).isEqualTo(4999L * 5);
  }

  @Test
  void computingAgainAfterMoreIntervalsOrAUnionCountsThemAll() {
    // The sweep sorts in place: intervals added after it, and a union taken after it, must still
    // count exactly as if nothing had been sorted.
    ConcurrencyTimeline pins = new ConcurrencyTimeline();
    pins.add(50, 60);
    pins.add(0, 100);
    assertThat(pins.compute(2).peak()).isEqualTo(2);
    pins.add(55, 58);
    assertThat(pins.compute(2).peak()).isEqualTo(3);
    ConcurrencyTimeline enters = new ConcurrencyTimeline();
    enters.add(56, 57);
    enters.add(1, 2);
    Concurrency held = ConcurrencyTimeline.union(pins, enters).compute(2);
    assertThat(held.peak()).isEqualTo(4);
    assertThat(held.nanosAtLevel()).containsExactly(0L, 89L, 8L, 2L, 1L);
    assertThat(pins.compute(2).peak()).as("the parts are unchanged").isEqualTo(3);
  }

  @Test
  void slicesHoldTheMostOpenAtOnceWithinThem() {
    ConcurrencyTimeline t = new ConcurrencyTimeline();
    t.add(0, 30); // slices 0-2
    t.add(15, 25); // slices 1-2, two at once
    t.add(25, 26); // touches the second's end: still two at once in slice 2
    t.add(70, 100); // slices 7-9
    int[] max = t.maxPerBucket(0, 100, 10);
    assertThat(max).containsExactly(1, 2, 2, 0, 0, 0, 0, 1, 1, 1);
    // the peak of the slices is the sweep's peak
    assertThat(java.util.Arrays.stream(max).max().getAsInt()).isEqualTo(t.compute(2).peak());
    assertThat(new ConcurrencyTimeline().maxPerBucket(0, 100, 4)).containsExactly(0, 0, 0, 0);
  }

  /** On every sample, the timeline's highest slice is the report's peak of carriers at once. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("dev.vtscope.testing.TestRecordings#samples")
  void theTimelinePeaksWhereTheReportSays(java.nio.file.Path sample) {
    Analysis a = dev.vtscope.testing.Reports.analyze("s.jfr", sample, GroupBy.CULPRIT);
    CarrierTimeline t = a.timeline();
    assertThat(t.pinned()).hasSize(CarrierTimeline.BUCKETS);
    assertThat(java.util.Arrays.stream(t.pinned()).max().getAsInt())
        .isEqualTo(a.pinned().concurrency().peak());
    assertThat(java.util.Arrays.stream(t.held()).max().getAsInt()).isEqualTo(a.carriers().peak());
    assertThat(t.submitFailures()).hasSize((int) Math.min(a.submitFailed().events(), 2000));
  }
}
