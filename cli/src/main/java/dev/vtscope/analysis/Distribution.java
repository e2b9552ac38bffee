package dev.vtscope.analysis;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The durations behind a {@link DurationSummary}, in the form that merges exactly: the durations
 * themselves while there are few ({@value DurationStatistics#EXACT} at most), or the histogram of
 * three significant digits that the percentiles are read from. A JSON report carries it, so that
 * reports of several recordings merge into the percentiles one analysis of them all would give.
 * Never changed once made.
 */
public final class Distribution {

  private static final Base64.Encoder BASE64 = Base64.getEncoder();

  private final long[] values;
  private final Histogram histogram;

  private Distribution(long[] values, Histogram histogram) {
    this.values = values;
    this.histogram = histogram;
  }

  /** The given durations, kept as they are (in ascending order: their order says nothing). */
  static Distribution ofValues(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return new Distribution(sorted, null);
  }

  /** A histogram that is not changed afterwards. */
  static Distribution ofHistogram(Histogram histogram) {
    return new Distribution(null, histogram);
  }

  /** The durations in ascending order, when kept as they are; null when only a histogram is. */
  public long[] values() {
    return values == null ? null : values.clone();
  }

  /**
   * The histogram in HdrHistogram's compressed encoding, base 64; null when the durations are kept
   * as they are. The same durations give the same text however they were added up: the encoding
   * names the highest value the histogram could hold, which an auto-resizing one sets by the order
   * its values came in, so the counts are copied into one that reaches just their maximum first.
   */
  public String encodedHistogram() {
    if (histogram == null) {
      return null;
    }
    long lowest = histogram.getLowestDiscernibleValue();
    Histogram canonical =
        new Histogram(
            lowest,
            Math.max(2 * lowest, histogram.getMaxValue()),
            histogram.getNumberOfSignificantValueDigits());
    canonical.add(histogram);
    ByteBuffer buffer = ByteBuffer.allocate(canonical.getNeededByteBufferCapacity());
    int length = canonical.encodeIntoCompressedByteBuffer(buffer, 9);
    return BASE64.encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  /** The durations given as they are. */
  public static Distribution values(long[] values) {
    return ofValues(values);
  }

  /**
   * A histogram from its encoding.
   *
   * @throws IllegalArgumentException when the text is not one
   */
  public static Distribution decodeHistogram(String base64) {
    try {
      ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
      return ofHistogram(Histogram.decodeFromCompressedByteBuffer(bytes, 0));
    } catch (DataFormatException | RuntimeException e) {
      throw new IllegalArgumentException("not an encoded histogram: " + e.getMessage(), e);
    }
  }

  /** The durations as they are, not to be changed; null when only a histogram is kept. */
  long[] valuesKept() {
    return values;
  }

  /** The histogram, not to be changed; null when the durations are kept as they are. */
  Histogram histogramKept() {
    return histogram;
  }

  /** How many durations. */
  public long count() {
    return histogram != null ? histogram.getTotalCount() : values.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Distribution d
        && Arrays.equals(values, d.values)
        && java.util.Objects.equals(histogram, d.histogram);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values) * 31 + (histogram == null ? 0 : (int) histogram.getTotalCount());
  }
}
