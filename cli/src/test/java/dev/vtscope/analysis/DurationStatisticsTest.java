package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Few durations are kept as they are and many in a histogram; the summary must be what one
 * histogram of every duration gives, however the durations arrived and were merged.
 */
class DurationStatisticsTest {

  private static DurationSummary oracle(long[] values) {
    Histogram h = new Histogram(3);
    long total = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    for (long v : values) {
      h.recordValue(v);
      total += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    long p50 = Math.max(min, Math.min(max, h.getValueAtPercentile(50)));
    long p90 = Math.max(min, Math.min(max, h.getValueAtPercentile(90)));
    long p99 = Math.max(min, Math.min(max, h.getValueAtPercentile(99)));
    return new DurationSummary(
        values.length, total, min, total / values.length, p50, p90, p99, max);
  }

  @Test
  void summaryIsThatOfOneHistogramWhateverTheSizeAndTheMerges() {
    Random random = new Random(7);
    for (int size :
        new int[] {
          1,
          2,
          10,
          DurationStatistics.EXACT - 1,
          DurationStatistics.EXACT,
          DurationStatistics.EXACT + 1,
          3 * DurationStatistics.EXACT,
          DurationStatistics.KEPT - 1,
          DurationStatistics.KEPT,
          DurationStatistics.KEPT + 1,
          20_000
        }) {
      long[] values = new long[size];
      for (int i = 0; i < size; i++) {
        // pins from tens of nanoseconds to seconds, most of them short
        values[i] = (long) Math.pow(10, 1 + random.nextDouble() * 8);
      }
      DurationSummary expected = oracle(values);

      DurationStatistics one = new DurationStatistics();
      for (long v : values) {
        one.add(v);
      }
      assertThat(figures(one.summary())).as("size %d in one", size).isEqualTo(expected);

      // the same durations in parts of random sizes, merged in a random order of merges
      DurationStatistics merged = new DurationStatistics();
      // and the same parts as reports write their sites' durations: values or an encoded
      // histogram, read back and added up (vtscope merge)
      DurationStatistics reported = new DurationStatistics();
      int i = 0;
      while (i < size) {
        int part = 1 + random.nextInt(Math.max(1, size / 3));
        DurationStatistics piece = new DurationStatistics();
        for (int k = 0; k < part && i < size; k++) {
          piece.add(values[i++]);
        }
        reported.addAll(throughAReport(piece.summary()));
        if (random.nextBoolean()) {
          merged.addAll(piece);
        } else {
          piece.addAll(merged);
          merged = piece;
        }
      }
      assertThat(figures(merged.summary())).as("size %d merged", size).isEqualTo(expected);
      assertThat(figures(reported.summary())).as("size %d reported", size).isEqualTo(expected);
      // and the durations a report writes are the same text whichever way they were added up
      assertThat(encoded(merged))
          .as("size %d merged, encoded", size)
          .isEqualTo(encoded(one))
          .isEqualTo(encoded(reported));
    }
  }

  /** What a JSON report writes of the durations: the values, or the encoded histogram. */
  private static String encoded(DurationStatistics statistics) {
    Distribution d = statistics.summary().distribution();
    return d.values() != null ? java.util.Arrays.toString(d.values()) : d.encodedHistogram();
  }

  /** The figures of a summary, without the durations behind them. */
  private static DurationSummary figures(DurationSummary s) {
    return new DurationSummary(
        s.count(),
        s.totalNanos(),
        s.minNanos(),
        s.meanNanos(),
        s.p50Nanos(),
        s.p90Nanos(),
        s.p99Nanos(),
        s.maxNanos());
  }

  /** A summary as a JSON report writes it and merge reads it back. */
  private static DurationSummary throughAReport(DurationSummary s) {
    Distribution d = s.distribution();
    Distribution read =
        d.values() != null
            ? Distribution.values(d.values())
            : Distribution.decodeHistogram(d.encodedHistogram());
    return new DurationSummary(
        s.count(),
        s.totalNanos(),
        s.minNanos(),
        s.meanNanos(),
        s.p50Nanos(),
        s.p90Nanos(),
        s.p99Nanos(),
        s.maxNanos(),
        read);
  }
}
