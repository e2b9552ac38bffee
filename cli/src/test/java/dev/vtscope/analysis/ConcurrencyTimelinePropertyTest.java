package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The timeline's sorted runs against the plain algorithm they replaced: every interval in two long
 * arrays, both sorted, swept once. Intervals fall into chunks at random, not by time, so that runs
 * overlap as a pin that crosses a chunk's edge makes them overlap; chunks are sorted or not before
 * they merge, in any order, and a second timeline is joined as monitor enters are.
 */
class ConcurrencyTimelinePropertyTest {

  /** One interval: where it starts past the base, how long (0 or less: empty), and its chunk. */
  record Interval(long offset, long length, int chunk) {}

  @Provide
  Arbitrary<Interval> interval() {
    return Combinators.combine(
            Arbitraries.longs().between(0, 100_000),
            Arbitraries.oneOf(
                Arbitraries.longs().between(-3, 3), Arbitraries.longs().between(1, 50_000)),
            Arbitraries.integers().between(0, 7))
        .as(Interval::new);
  }

  @Provide
  Arbitrary<Long> base() {
    // epoch nanoseconds as recordings have them, and the ends of the range, where differences wrap
    return Arbitraries.of(
        0L, -50_000L, 1_764_300_000_000_000_000L, Long.MIN_VALUE, Long.MAX_VALUE - 200_000);
  }

  @Property(tries = 300)
  void chunksSortedAndMergedInAnyOrderSweepAsAllTheIntervalsAtOnce(
      @ForAll @Size(max = 300) List<@From("interval") Interval> pins,
      @ForAll @Size(max = 40) List<@From("interval") Interval> enters,
      @ForAll("base") long base,
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 4) int parallelism) {
    Random random = new Random(seed);
    ConcurrencyTimeline pinned = merged(pins, base, random);
    ConcurrencyTimeline entered = merged(enters, base, random);
    Plain plainPins = Plain.of(pins, base);
    List<Interval> both = new ArrayList<>(pins);
    both.addAll(enters);
    Plain plainBoth = Plain.of(both, base);

    ConcurrencyTimeline union = ConcurrencyTimeline.union(pinned, entered);
    assertThat(pinned.compute(parallelism)).isEqualTo(plainPins.compute(parallelism));
    assertThat(union.compute(parallelism)).isEqualTo(plainBoth.compute(parallelism));
    long from = base + random.nextLong(0, 20_000);
    long to = from + random.nextLong(1, 200_000);
    int buckets = random.nextInt(1, 40);
    assertThat(pinned.maxPerBucket(from, to, buckets))
        .isEqualTo(plainPins.maxPerBucket(from, to, buckets));
    assertThat(union.maxPerBucket(from, to, buckets))
        .isEqualTo(plainBoth.maxPerBucket(from, to, buckets));
    assertThat(pinned.compute(parallelism))
        .as("the union left its parts as they were")
        .isEqualTo(plainPins.compute(parallelism));
  }

  /** The intervals taken chunk by chunk, some chunks sorted, merged in a random order. */
  private static ConcurrencyTimeline merged(List<Interval> intervals, long base, Random random) {
    List<ConcurrencyTimeline> chunks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      chunks.add(new ConcurrencyTimeline());
    }
    ConcurrencyTimeline total = new ConcurrencyTimeline();
    for (Interval i : intervals) {
      // a few go straight to the total, as a reader that takes events one by one gives them
      ConcurrencyTimeline into = random.nextInt(10) == 0 ? total : chunks.get(i.chunk());
      into.add(base + i.offset(), base + i.offset() + i.length());
    }
    Collections.shuffle(chunks, random);
    for (ConcurrencyTimeline chunk : chunks) {
      if (random.nextBoolean()) {
        chunk.sort();
      }
      total.addAll(chunk);
    }
    return total;
  }

  @Example
  void aFullBufferAndMoreRunsThanKeptSweepAsAllTheIntervalsAtOnce() {
    Random random = new Random(7);
    List<Interval> intervals = new ArrayList<>();
    ConcurrencyTimeline total = new ConcurrencyTimeline();
    // one builder past its buffer, as when one reader feeds every event to one builder
    ConcurrencyTimeline big = new ConcurrencyTimeline();
    for (int i = 0; i < 150_000; i++) {
      Interval in = new Interval(random.nextLong(0, 10_000_000), random.nextLong(1, 5_000), 0);
      intervals.add(in);
      big.add(in.offset(), in.offset() + in.length());
    }
    total.addAll(big);
    // then many small summaries, as watch merges one an interval
    for (int n = 0; n < 3 * ConcurrencyTimeline.MAX_RUNS; n++) {
      ConcurrencyTimeline small = new ConcurrencyTimeline();
      for (int i = random.nextInt(4); i > 0; i--) {
        Interval in = new Interval(random.nextLong(0, 10_000_000), random.nextLong(1, 50_000), 0);
        intervals.add(in);
        small.add(in.offset(), in.offset() + in.length());
      }
      small.sort();
      total.addAll(small);
      assertThat(total.runs()).isLessThanOrEqualTo(ConcurrencyTimeline.MAX_RUNS);
    }
    Plain plain = Plain.of(intervals, 0);
    assertThat(total.intervals()).isEqualTo(intervals.size());
    assertThat(total.compute(8)).isEqualTo(plain.compute(8));
    assertThat(total.maxPerBucket(0, 10_000_000, 100))
        .isEqualTo(plain.maxPerBucket(0, 10_000_000, 100));
  }

  @Example
  void pinsAFewHundredMicrosecondsApartTakeAFewBytesEach() {
    // a recording's pace: some 3,000 pins a second, each of some tens of microseconds
    Random random = new Random(11);
    ConcurrencyTimeline t = new ConcurrencyTimeline();
    long at = 1_764_300_000_000_000_000L;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      at += random.nextLong(1, 600_000);
      t.add(at, at + random.nextLong(10_000, 60_000));
    }
    t.sort();
    assertThat((double) t.runBytes() / n).isLessThan(7.0);
  }

  /** The algorithm the runs replaced: every interval in two arrays, sorted, swept once. */
  private record Plain(long[] starts, long[] ends) {

    static Plain of(List<Interval> intervals, long base) {
      long[] s = new long[intervals.size()];
      long[] e = new long[intervals.size()];
      int n = 0;
      for (Interval i : intervals) {
        long start = base + i.offset();
        long end = start + i.length(); // wraps as the timeline's caller's would
        if (end > start) {
          s[n] = start;
          e[n] = end;
          n++;
        }
      }
      s = Arrays.copyOf(s, n);
      e = Arrays.copyOf(e, n);
      Arrays.sort(s);
      Arrays.sort(e);
      return new Plain(s, e);
    }

    interface Stretch {
      void open(long from, long to, int level);
    }

    int sweep(Stretch stretch) {
      int size = starts.length;
      int i = 0;
      int j = 0;
      int level = 0;
      int peak = 0;
      long previous = size == 0 ? 0 : starts[0];
      while (i < size || j < size) {
        boolean nextIsEnd = i >= size || ends[j] <= starts[i];
        long now = nextIsEnd ? ends[j] : starts[i];
        if (level > 0 && now > previous) {
          stretch.open(previous, now, level);
        }
        previous = now;
        if (nextIsEnd) {
          level--;
          j++;
        } else {
          level++;
          i++;
          peak = Math.max(peak, level);
        }
      }
      return peak;
    }

    Concurrency compute(int parallelism) {
      if (starts.length == 0) {
        return Concurrency.none(parallelism);
      }
      List<Long> atLevel = new ArrayList<>(List.of(0L));
      long[] saturated = {0};
      int peak =
          sweep(
              (from, to, level) -> {
                while (atLevel.size() <= level) {
                  atLevel.add(0L);
                }
                atLevel.set(level, atLevel.get(level) + (to - from));
                if (parallelism > 0 && level >= parallelism) {
                  saturated[0] += to - from;
                }
              });
      while (atLevel.size() <= peak) {
        atLevel.add(0L);
      }
      return new Concurrency(peak, saturated[0], parallelism, atLevel);
    }

    int[] maxPerBucket(long from, long to, int buckets) {
      int[] max = new int[Math.max(1, buckets)];
      if (starts.length == 0 || to <= from) {
        return max;
      }
      double width = (double) (to - from) / max.length;
      sweep(
          (start, end, level) -> {
            int first = bucket(start, from, width, max.length);
            int last = bucket(end - 1, from, width, max.length);
            for (int b = first; b <= last; b++) {
              max[b] = Math.max(max[b], level);
            }
          });
      return max;
    }

    private static int bucket(long at, long from, double width, int buckets) {
      long b = (long) Math.floor((at - from) / width);
      return (int) Math.max(0, Math.min(buckets - 1, b));
    }
  }
}
