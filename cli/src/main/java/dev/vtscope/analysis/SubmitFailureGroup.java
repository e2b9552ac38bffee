package dev.vtscope.analysis;

import dev.vtscope.recording.RecordedStack;

/**
 * Submit failures that share an exception message and a stack.
 *
 * @param message the exception message with identities and counts replaced by placeholders, or null
 *     when none was recorded
 * @param example the first message as recorded
 * @param events how many
 * @param virtualThreads distinct virtual threads whose tasks were rejected
 * @param stack where the submission failed
 * @param firstSeenNanos the first, nanoseconds since the epoch
 * @param lastSeenNanos the last, nanoseconds since the epoch
 */
public record SubmitFailureGroup(
    String message,
    String example,
    long events,
    int virtualThreads,
    RecordedStack stack,
    long firstSeenNanos,
    long lastSeenNanos) {

  /** Groups as reports list them: most rejections first, then by message. */
  // By hand, not with Comparator.comparing: that makes a class at start-up (a serializable
  // lambda) that no class-data archive keeps.
  static final java.util.Comparator<SubmitFailureGroup> BY_EVENTS =
      (a, b) ->
          a.events() != b.events()
              ? Long.compare(b.events(), a.events())
              : java.util.Objects.toString(a.message(), "")
                  .compareTo(java.util.Objects.toString(b.message(), ""));
}
