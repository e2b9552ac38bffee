package dev.vtscope.analysis;

/**
 * Statistics of a set of durations, all in nanoseconds. Count, total, min, max and mean are exact;
 * the percentiles come from a histogram with three significant digits and are clamped to [min,
 * max].
 */
public record DurationSummary(
    long count,
    long totalNanos,
    long minNanos,
    long meanNanos,
    long p50Nanos,
    long p90Nanos,
    long p99Nanos,
    long maxNanos) {

  /** The summary of no durations. */
  public static final DurationSummary EMPTY = new DurationSummary(0, 0, 0, 0, 0, 0, 0, 0);
}
