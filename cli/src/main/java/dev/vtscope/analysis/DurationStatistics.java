package dev.vtscope.analysis;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Accumulates durations: exact count, total, min and max, and the percentiles of a histogram with
 * three significant digits. The first {@value #KEPT} durations are kept as they are and the
 * histogram is made only when there are more: a histogram covering pins from nanoseconds to a
 * fraction of a second takes some 150 KB, which with a thousand distinct pinned stacks of a few
 * pins each outweighed everything else (bench/distinct-stacks.sh measures it), and {@value #KEPT}
 * durations take 64 KB. The percentiles are the same either way: durations kept as they are are put
 * in a histogram when the summary is made. A summary carries the durations themselves up to {@value
 * #EXACT} of them, else the histogram.
 */
final class DurationStatistics {

  /** The most durations a summary carries as they are: more, and it carries the histogram. */
  static final int EXACT = 256;

  /**
   * Durations kept as they are before a histogram is made. A chunk's collectors merge into the
   * file's: a histogram made per chunk and site, then added bin by bin, was some 7% of reading a
   * gigabyte of a few pinned sites in 235 chunks, where recording a chunk's few thousand values is
   * a fraction of that.
   */
  static final int KEPT = 8192;

  private long[] exact = new long[4];
  private int exactCount;
  private Histogram histogram;
  private long count;
  private long total;
  private long min = Long.MAX_VALUE;
  private long max;

  void add(long nanos) {
    long value = Math.max(0, nanos);
    count++;
    total += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
    record(value);
  }

  private void record(long value) {
    if (histogram != null) {
      histogram.recordValue(value);
      return;
    }
    if (exactCount == exact.length) {
      if (exactCount >= KEPT) {
        toHistogram();
        histogram.recordValue(value);
        return;
      }
      exact = Arrays.copyOf(exact, exactCount * 2);
    }
    exact[exactCount++] = value;
  }

  /** From here on, durations go to a histogram. */
  private void toHistogram() {
    histogram = histogram();
    exact = null;
    exactCount = 0;
  }

  /** A histogram of the durations kept as they are. */
  private Histogram histogram() {
    Histogram h = new Histogram(3);
    for (int i = 0; i < exactCount; i++) {
      h.recordValue(exact[i]);
    }
    return h;
  }

  void addAll(DurationStatistics other) {
    if (other.count == 0) {
      return;
    }
    count += other.count;
    total += other.total;
    min = Math.min(min, other.min);
    max = Math.max(max, other.max);
    if (other.histogram != null) {
      if (histogram == null) {
        toHistogram();
      }
      histogram.add(other.histogram);
    } else {
      for (int i = 0; i < other.exactCount; i++) {
        record(other.exact[i]);
      }
    }
  }

  /**
   * Adds the durations of a summary made elsewhere (another recording's report), as {@link #addAll}
   * adds those of another collector: the same counts, total, extremes and histogram.
   *
   * @throws IllegalArgumentException when the summary does not carry its durations
   */
  void addAll(DurationSummary other) {
    if (other.count() == 0) {
      return;
    }
    Distribution d = other.distribution();
    if (d == null || d.count() != other.count()) {
      throw new IllegalArgumentException("the durations behind the summary are not known");
    }
    count += other.count();
    total += other.totalNanos();
    min = Math.min(min, other.minNanos());
    max = Math.max(max, other.maxNanos());
    if (d.histogramKept() != null) {
      if (histogram == null) {
        toHistogram();
      }
      histogram.add(d.histogramKept());
    } else {
      for (long value : d.valuesKept()) {
        record(value);
      }
    }
  }

  long count() {
    return count;
  }

  long total() {
    return total;
  }

  DurationSummary summary() {
    if (count == 0) {
      return DurationSummary.EMPTY;
    }
    Histogram h = histogram != null ? histogram : histogram();
    Distribution distribution =
        histogram != null
            ? Distribution.ofHistogram(histogram.copy())
            : exactCount > EXACT
                ? Distribution.ofHistogram(h)
                : Distribution.ofValues(Arrays.copyOf(exact, exactCount));
    return new DurationSummary(
        count,
        total,
        min,
        total / count,
        percentile(h, 50),
        percentile(h, 90),
        percentile(h, 99),
        max,
        distribution);
  }

  private long percentile(Histogram h, double p) {
    long value = h.getValueAtPercentile(p);
    return Math.max(min, Math.min(max, value));
  }
}
