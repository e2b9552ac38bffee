package dev.vtscope.analysis;

/**
 * Statistics of a set of durations, all in nanoseconds. Count, total, min, max and mean are exact;
 * the percentiles come from a histogram with three significant digits and are clamped to [min,
 * max]. The {@link Distribution} behind them, when known, lets summaries merge exactly.
 */
public record DurationSummary(
    long count,
    long totalNanos,
    long minNanos,
    long meanNanos,
    long p50Nanos,
    long p90Nanos,
    long p99Nanos,
    long maxNanos,
    Distribution distribution) {

  /** The summary of no durations. */
  public static final DurationSummary EMPTY = new DurationSummary(0, 0, 0, 0, 0, 0, 0, 0);

  /** A summary without the durations behind it: one that cannot be merged exactly. */
  public DurationSummary(
      long count,
      long totalNanos,
      long minNanos,
      long meanNanos,
      long p50Nanos,
      long p90Nanos,
      long p99Nanos,
      long maxNanos) {
    this(count, totalNanos, minNanos, meanNanos, p50Nanos, p90Nanos, p99Nanos, maxNanos, null);
  }
}
