package dev.vtscope.recording;

/**
 * A {@code jdk.VirtualThreadPinned} event.
 *
 * @param startNanos start, in nanoseconds since the epoch
 * @param durationNanos how long the carrier was pinned
 * @param virtualThreadId the pinned virtual thread's Java thread id
 * @param stack where the virtual thread blocked while pinned
 * @param pinnedReason why it pinned (JDK 24+), or null
 * @param blockingOperation what it was doing when it blocked (JDK 24+), or null
 * @param carrierThread the carrier's name (JDK 24+), or null
 */
public record PinnedEvent(
    long startNanos,
    long durationNanos,
    long virtualThreadId,
    RecordedStack stack,
    String pinnedReason,
    String blockingOperation,
    String carrierThread) {

  /** End of the pinned interval, in nanoseconds since the epoch. */
  public long endNanos() {
    return startNanos + durationNanos;
  }
}
