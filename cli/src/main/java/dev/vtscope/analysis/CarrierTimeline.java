package dev.vtscope.analysis;

import java.util.List;

/**
 * Carriers held over one recording (the one that held most, when several were merged), in
 * fixed-width slices: the most held at once in each, for a chart. Bounded whatever the recording's
 * length or events.
 *
 * @param startNanos the start of the first slice, in nanoseconds since the epoch
 * @param bucketNanos the width of a slice
 * @param pinned the most carriers pinned at once in each slice
 * @param held the most carriers held at once in each slice: pinned, or on JDK 21-23 entering a
 *     monitor
 * @param parallelism the scheduler's parallelism, the line every carrier held reaches
 * @param submitFailures when tasks were rejected (the first {@link #MAX_MARKS}), since the epoch
 */
public record CarrierTimeline(
    long startNanos,
    long bucketNanos,
    int[] pinned,
    int[] held,
    int parallelism,
    List<Long> submitFailures) {

  /** Slices of a timeline. */
  public static final int BUCKETS = 600;

  /** Submit-failure marks kept. */
  public static final int MAX_MARKS = 2_000;

  public CarrierTimeline {
    pinned = pinned.clone();
    held = held.clone();
    submitFailures = List.copyOf(submitFailures);
  }

  @Override
  public int[] pinned() {
    return pinned.clone();
  }

  @Override
  public int[] held() {
    return held.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CarrierTimeline t
        && t.startNanos == startNanos
        && t.bucketNanos == bucketNanos
        && java.util.Arrays.equals(t.pinned, pinned)
        && java.util.Arrays.equals(t.held, held)
        && t.parallelism == parallelism
        && t.submitFailures.equals(submitFailures);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        startNanos,
        bucketNanos,
        java.util.Arrays.hashCode(pinned),
        java.util.Arrays.hashCode(held),
        parallelism,
        submitFailures);
  }

  @Override
  public String toString() {
    return "CarrierTimeline[" + startNanos + "+" + bucketNanos + " x " + pinned.length + "]";
  }
}
