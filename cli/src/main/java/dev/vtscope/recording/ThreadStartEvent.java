package dev.vtscope.recording;

/**
 * A {@code jdk.ThreadStart} event of a platform thread.
 *
 * @param startNanos when, in nanoseconds since the epoch
 * @param threadName the started thread's name
 * @param threadGroup the started thread's group name, or null
 */
public record ThreadStartEvent(long startNanos, String threadName, String threadGroup) {}
