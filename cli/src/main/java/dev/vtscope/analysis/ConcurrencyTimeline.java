package dev.vtscope.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Computes carrier concurrency from pinned intervals of one JVM. The exact peak needs every
 * interval, because JFR writes an event when it ends, so a long pin that began early can arrive
 * after many short ones; but the sweep needs only the starts in order and the ends in order, not
 * which start belongs to which end. So intervals are taken into a small buffer, and each full
 * buffer (and each chunk's, on the thread that read it) is sorted and kept as a {@link Run}: its
 * starts ascending and its ends ascending, each as the difference from the one before in a varint:
 * at a recording's pace of pins, 2 or 3 bytes a value rather than a long's 8, and no array that
 * doubles as it grows. The sweep merges the runs' sequences as it goes. This is the one structure
 * of an analysis that grows with the number of events (bench/README.md measures how much).
 */
final class ConcurrencyTimeline {

  /** Intervals buffered before they are sorted into a run: 1 MB of longs at most. */
  private static final int BUFFER = 1 << 16;

  /**
   * Runs kept before the smaller half are merged into one: each run costs an object and a cursor in
   * the sweep, and a summary merged interval after interval (watch) would otherwise gather one run
   * per interval without end.
   */
  static final int MAX_RUNS = 512;

  private long[] starts = new long[0];
  private long[] ends = new long[0];
  private int size;

  /** Sorted runs, never changed once made: timelines that merged share them. */
  private List<Run> runs = new ArrayList<>();

  void add(long startNanos, long endNanos) {
    if (endNanos <= startNanos) {
      return; // an empty interval pins nothing
    }
    if (size == BUFFER) {
      sort();
    }
    if (size == starts.length) {
      int capacity = Math.min(BUFFER, Math.max(64, size * 2));
      starts = Arrays.copyOf(starts, capacity);
      ends = Arrays.copyOf(ends, capacity);
    }
    starts[size] = startNanos;
    ends[size] = endNanos;
    size++;
  }

  /** Adds the intervals of {@code other}, which is left as it was. */
  void addAll(ConcurrencyTimeline other) {
    runs.addAll(other.runs);
    if (other.size > 0) {
      runs.add(
          Run.of(Arrays.copyOf(other.starts, other.size), Arrays.copyOf(other.ends, other.size)));
    }
    bound();
  }

  /** A timeline with the intervals of both; they are left as they were. */
  static ConcurrencyTimeline union(ConcurrencyTimeline a, ConcurrencyTimeline b) {
    ConcurrencyTimeline both = new ConcurrencyTimeline();
    both.addAll(a);
    both.addAll(b);
    return both;
  }

  /**
   * Sorts the buffered intervals into a run now: done per chunk on the thread that read it, and
   * before a summary is made, so that no later query changes what this holds.
   */
  void sort() {
    if (size > 0) {
      Arrays.sort(starts, 0, size);
      Arrays.sort(ends, 0, size);
      runs.add(Run.sorted(starts, ends, size));
      starts = new long[0];
      ends = new long[0];
      size = 0;
      bound();
    }
  }

  /** Intervals held, for tests. */
  long intervals() {
    long n = size;
    for (Run r : runs) {
      n += r.count;
    }
    return n;
  }

  /** Bytes held by the runs, for tests. */
  long runBytes() {
    long n = 0;
    for (Run r : runs) {
      n += r.starts.length + r.ends.length;
    }
    return n;
  }

  /** Runs held, for tests. */
  int runs() {
    return runs.size();
  }

  /** Keeps at most {@link #MAX_RUNS} runs, merging the smaller half when there are more. */
  private void bound() {
    if (runs.size() <= MAX_RUNS) {
      return;
    }
    List<Run> bySize = new ArrayList<>(runs);
    // a plain lambda: Comparator.comparingInt returns a serializable one, a class made at run time
    bySize.sort((x, y) -> Integer.compare(x.count, y.count));
    List<Run> small = bySize.subList(0, bySize.size() / 2);
    List<Run> kept = new ArrayList<>(bySize.subList(bySize.size() / 2, bySize.size()));
    kept.add(Run.merged(small));
    runs = kept;
  }

  /**
   * What one sweep of the intervals gives.
   *
   * @param concurrency how many were open at once, and how long at each level
   * @param maxPerBucket the most open at once in each equal slice of the time asked for: the shape
   *     of the timeline, in memory that does not grow with the events
   */
  record Swept(Concurrency concurrency, int[] maxPerBucket) {}

  /** The concurrency of the intervals, counted against {@code parallelism}. */
  Concurrency compute(int parallelism) {
    return sweep(parallelism, 0, 0, 1).concurrency();
  }

  /** The most intervals open at once in each of {@code buckets} equal slices of [from, to). */
  int[] maxPerBucket(long from, long to, int buckets) {
    return sweep(0, from, to, buckets).maxPerBucket();
  }

  /**
   * Sweeps the intervals once, for their concurrency against {@code parallelism} and the most open
   * in each of {@code buckets} equal slices of [{@code from}, {@code to}). An interval covers
   * [start, end): one that ends exactly when another starts does not overlap it (ends are taken
   * first at equal times).
   */
  Swept sweep(int parallelism, long from, long to, int buckets) {
    int[] max = new int[Math.max(1, buckets)];
    sort();
    Ascending starting = new Ascending(runs, true);
    Ascending ending = new Ascending(runs, false);
    if (!starting.hasNext()) {
      return new Swept(Concurrency.none(parallelism), max);
    }
    boolean sliced = to > from;
    double width = (double) (to - from) / max.length;
    long[] atLevel = new long[8];
    long saturated = 0;
    int level = 0;
    int peak = 0;
    long previous = starting.peek();
    while (starting.hasNext() || ending.hasNext()) {
      boolean nextIsEnd = !starting.hasNext() || ending.peek() <= starting.peek();
      long now = nextIsEnd ? ending.peek() : starting.peek();
      if (level > 0 && now > previous) {
        // [previous, now) had level intervals open
        if (level >= atLevel.length) {
          atLevel = Arrays.copyOf(atLevel, level * 2);
        }
        atLevel[level] += now - previous;
        if (parallelism > 0 && level >= parallelism) {
          saturated += now - previous;
        }
        if (sliced) {
          int first = bucket(previous, from, width, max.length);
          int last = bucket(now - 1, from, width, max.length);
          for (int b = first; b <= last; b++) {
            max[b] = Math.max(max[b], level);
          }
        }
      }
      previous = now;
      if (nextIsEnd) {
        level--;
        ending.advance();
      } else {
        level++;
        starting.advance();
        peak = Math.max(peak, level);
      }
    }
    List<Long> nanosAtLevel = new ArrayList<>(peak + 1);
    for (int k = 0; k <= peak; k++) {
      nanosAtLevel.add(atLevel[k]);
    }
    return new Swept(new Concurrency(peak, saturated, parallelism, nanosAtLevel), max);
  }

  private static int bucket(long at, long from, double width, int buckets) {
    // a cast truncates toward zero where floor rounds down: they differ only below zero, which
    // both clamp to the first bucket (Math.floor is a call into StrictMath for the quick compiler)
    long b = (long) ((at - from) / width);
    return (int) Math.max(0, Math.min(buckets - 1, b));
  }

  /**
   * Sorted intervals: their starts ascending and their ends ascending, each sequence as the
   * difference from the one before (the first from 0), in unsigned varints of 7 bits a byte.
   * Differences wrap as longs do, so any values decode as they were given.
   */
  private static final class Run {
    final int count;
    final byte[] starts;
    final byte[] ends;

    private Run(int count, byte[] starts, byte[] ends) {
      this.count = count;
      this.starts = starts;
      this.ends = ends;
    }

    static Run of(long[] starts, long[] ends) {
      Arrays.sort(starts);
      Arrays.sort(ends);
      return sorted(starts, ends, starts.length);
    }

    /** The first {@code n} of {@code starts} and of {@code ends}, each ascending already. */
    static Run sorted(long[] starts, long[] ends, int n) {
      return new Run(n, encode(starts, n), encode(ends, n));
    }

    /** One run of the intervals of {@code parts}. */
    static Run merged(List<Run> parts) {
      int n = 0;
      for (Run r : parts) {
        n += r.count;
      }
      return new Run(
          n, encode(new Ascending(parts, true), n), encode(new Ascending(parts, false), n));
    }

    private static byte[] encode(long[] values, int n) {
      Varints out = new Varints(n);
      for (int i = 0; i < n; i++) {
        out.add(values[i]);
      }
      return out.bytes();
    }

    private static byte[] encode(Ascending values, int n) {
      Varints out = new Varints(n);
      while (values.hasNext()) {
        out.add(values.peek());
        values.advance();
      }
      return out.bytes();
    }
  }

  /** Writes ascending longs as varint differences. */
  private static final class Varints {
    private byte[] bytes;
    private int length;
    private long previous;

    Varints(int expected) {
      bytes = new byte[Math.max(16, expected * 3)];
    }

    void add(long value) {
      long delta = value - previous;
      previous = value;
      if (length + 10 > bytes.length) {
        bytes = Arrays.copyOf(bytes, bytes.length * 2);
      }
      while ((delta & ~0x7FL) != 0) {
        bytes[length++] = (byte) ((delta & 0x7F) | 0x80);
        delta >>>= 7;
      }
      bytes[length++] = (byte) delta;
    }

    byte[] bytes() {
      return Arrays.copyOf(bytes, length);
    }
  }

  /**
   * The starts (or the ends) of several runs in ascending order: a k-way merge, the run whose next
   * value is least at the top of a binary heap.
   */
  private static final class Ascending {
    private final byte[][] data;
    private final int[] position;
    private final int[] remaining;
    private final long[] current;

    /** Indexes into the arrays above, a min-heap on {@code current}. */
    private final int[] heap;

    private int heapSize;

    Ascending(List<Run> runs, boolean starts) {
      int k = runs.size();
      data = new byte[k][];
      position = new int[k];
      remaining = new int[k];
      current = new long[k];
      heap = new int[k];
      for (int i = 0; i < k; i++) {
        Run r = runs.get(i);
        data[i] = starts ? r.starts : r.ends;
        remaining[i] = r.count;
        if (r.count > 0) {
          current[i] = read(i, 0);
          heap[heapSize++] = i;
        }
      }
      for (int i = heapSize / 2 - 1; i >= 0; i--) {
        down(i);
      }
    }

    boolean hasNext() {
      return heapSize > 0;
    }

    long peek() {
      return current[heap[0]];
    }

    void advance() {
      int top = heap[0];
      if (--remaining[top] > 0) {
        current[top] = read(top, current[top]);
      } else {
        heap[0] = heap[--heapSize];
      }
      down(0);
    }

    /** The next value of run {@code i}: its next difference added to {@code previous}. */
    private long read(int i, long previous) {
      byte[] d = data[i];
      int p = position[i];
      long delta = 0;
      int shift = 0;
      byte b;
      do {
        b = d[p++];
        delta |= (long) (b & 0x7F) << shift;
        shift += 7;
      } while (b < 0);
      position[i] = p;
      return previous + delta;
    }

    private void down(int i) {
      int n = heapSize;
      if (n == 0) {
        return;
      }
      int item = heap[i];
      long value = current[item];
      while (true) {
        int child = 2 * i + 1;
        if (child >= n) {
          break;
        }
        if (child + 1 < n && current[heap[child + 1]] < current[heap[child]]) {
          child++;
        }
        if (current[heap[child]] >= value) {
          break;
        }
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = item;
    }
  }
}
