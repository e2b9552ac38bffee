package dev.vtscope.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Computes carrier concurrency from pinned intervals of one JVM. Each interval costs 16 bytes: the
 * exact peak needs every interval, because JFR writes an event when it ends, so a long pin that
 * began early can arrive after many short ones. This is the one structure of an analysis that grows
 * with the number of events; it holds two primitive longs per pinned event and nothing else.
 */
final class ConcurrencyTimeline {

  private long[] starts = new long[1024];
  private long[] ends = new long[1024];
  private int size;

  /**
   * Whether starts and ends are each in ascending order. The sweep needs only the two sorted
   * sequences, not which start belongs to which end, so they are sorted in place, once, rather than
   * copied: at a million pins the copies were 32 MB more at the peak.
   */
  private boolean sorted;

  void add(long startNanos, long endNanos) {
    if (endNanos <= startNanos) {
      return; // an empty interval pins nothing
    }
    if (size == starts.length) {
      starts = Arrays.copyOf(starts, size * 2);
      ends = Arrays.copyOf(ends, size * 2);
    }
    starts[size] = startNanos;
    ends[size] = endNanos;
    size++;
    sorted = false;
  }

  /** Adds the intervals of {@code other}. */
  void addAll(ConcurrencyTimeline other) {
    if (size + other.size > starts.length) {
      int capacity = Math.max(size + other.size, starts.length * 2);
      starts = Arrays.copyOf(starts, capacity);
      ends = Arrays.copyOf(ends, capacity);
    }
    System.arraycopy(other.starts, 0, starts, size, other.size);
    System.arraycopy(other.ends, 0, ends, size, other.size);
    size += other.size;
    sorted = false;
  }

  /** A timeline with the intervals of both. */
  static ConcurrencyTimeline union(ConcurrencyTimeline a, ConcurrencyTimeline b) {
    a.sort();
    b.sort();
    ConcurrencyTimeline both = new ConcurrencyTimeline();
    both.starts = merged(a.starts, a.size, b.starts, b.size);
    both.ends = merged(a.ends, a.size, b.ends, b.size);
    both.size = a.size + b.size;
    both.sorted = true;
    return both;
  }

  /** Sorts the intervals now, so that no later query changes what this holds. */
  void sort() {
    if (!sorted) {
      Arrays.sort(starts, 0, size);
      Arrays.sort(ends, 0, size);
      sorted = true;
    }
  }

  /** The first {@code n} of {@code x} and {@code m} of {@code y}, both ascending, merged. */
  private static long[] merged(long[] x, int n, long[] y, int m) {
    long[] out = new long[Math.max(1, n + m)];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < n && j < m) {
      out[k++] = x[i] <= y[j] ? x[i++] : y[j++];
    }
    while (i < n) {
      out[k++] = x[i++];
    }
    while (j < m) {
      out[k++] = y[j++];
    }
    return out;
  }

  /**
   * Sweeps the intervals. An interval covers [start, end): one that ends exactly when another
   * starts does not overlap it.
   */
  Concurrency compute(int parallelism) {
    if (size == 0) {
      return Concurrency.none(parallelism);
    }
    List<Long> atLevel = new ArrayList<>();
    atLevel.add(0L);
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

  /**
   * A stretch of time [{@code from}, {@code to}) during which {@code level} intervals were open.
   */
  private interface Stretch {
    void open(long from, long to, int level);
  }

  /**
   * Sweeps the sorted intervals, telling {@code stretch} of every stretch with at least one open;
   * returns the most open at once. An interval covers [start, end): one that ends exactly when
   * another starts does not overlap it (ends are taken first at equal times).
   */
  private int sweep(Stretch stretch) {
    sort();
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

  /**
   * The most intervals open at once in each of {@code buckets} equal slices of [{@code from},
   * {@code to}): the shape of the timeline, in memory that does not grow with the events.
   */
  int[] maxPerBucket(long from, long to, int buckets) {
    int[] max = new int[Math.max(1, buckets)];
    if (size == 0 || to <= from) {
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
