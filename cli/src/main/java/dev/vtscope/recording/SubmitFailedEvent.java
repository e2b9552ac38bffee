package dev.vtscope.recording;

/**
 * A {@code jdk.VirtualThreadSubmitFailed} event: the scheduler rejected a virtual thread's task.
 *
 * @param startNanos when, in nanoseconds since the epoch
 * @param virtualThreadId the Java thread id of the virtual thread whose task was rejected
 * @param exceptionMessage the rejection's message, or null
 * @param stack where the submission was attempted
 */
public record SubmitFailedEvent(
    long startNanos, long virtualThreadId, String exceptionMessage, RecordedStack stack) {}
