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
  }

  /** A timeline with the intervals of both. */
  static ConcurrencyTimeline union(ConcurrencyTimeline a, ConcurrencyTimeline b) {
    ConcurrencyTimeline both = new ConcurrencyTimeline();
    both.starts = new long[Math.max(1, a.size + b.size)];
    both.ends = new long[both.starts.length];
    System.arraycopy(a.starts, 0, both.starts, 0, a.size);
    System.arraycopy(a.ends, 0, both.ends, 0, a.size);
    System.arraycopy(b.starts, 0, both.starts, a.size, b.size);
    System.arraycopy(b.ends, 0, both.ends, a.size, b.size);
    both.size = a.size + b.size;
    return both;
  }

  /**
   * Sweeps the intervals. An interval covers [start, end): one that ends exactly when another
   * starts does not overlap it.
   */
  Concurrency compute(int parallelism) {
    if (size == 0) {
      return Concurrency.none(parallelism);
    }
    long[] s = Arrays.copyOf(starts, size);
    long[] e = Arrays.copyOf(ends, size);
    Arrays.sort(s);
    Arrays.sort(e);
    List<Long> atLevel = new ArrayList<>();
    atLevel.add(0L);
    int i = 0;
    int j = 0;
    int level = 0;
    int peak = 0;
    long saturated = 0;
    long previous = s[0];
    while (i < size || j < size) {
      // Ends first at equal times, so touching intervals do not count as overlapping.
      boolean nextIsEnd = i >= size || e[j] <= s[i];
      long now = nextIsEnd ? e[j] : s[i];
      if (level > 0 && now > previous) {
        while (atLevel.size() <= level) {
          atLevel.add(0L);
        }
        atLevel.set(level, atLevel.get(level) + (now - previous));
        if (parallelism > 0 && level >= parallelism) {
          saturated += now - previous;
        }
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
    while (atLevel.size() <= peak) {
      atLevel.add(0L);
    }
    return new Concurrency(peak, saturated, parallelism, atLevel);
  }
}
