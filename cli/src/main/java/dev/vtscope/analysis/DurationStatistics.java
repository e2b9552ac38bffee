package dev.vtscope.analysis;

import org.HdrHistogram.Histogram;

/**
 * Accumulates durations in constant memory: exact count, total, min and max, and a histogram for
 * the percentiles.
 */
final class DurationStatistics {

  private final Histogram histogram = new Histogram(3);
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
    histogram.recordValue(value);
  }

  void addAll(DurationStatistics other) {
    if (other.count == 0) {
      return;
    }
    count += other.count;
    total += other.total;
    min = Math.min(min, other.min);
    max = Math.max(max, other.max);
    histogram.add(other.histogram);
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
    return new DurationSummary(
        count, total, min, total / count, percentile(50), percentile(90), percentile(99), max);
  }

  private long percentile(double p) {
    long value = histogram.getValueAtPercentile(p);
    return Math.max(min, Math.min(max, value));
  }
}
