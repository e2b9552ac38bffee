package dev.vtscope.recording;

/**
 * A {@code jdk.ThreadStart} event of a platform thread.
 *
 * @param startNanos when, in nanoseconds since the epoch
 * @param threadName the started thread's name
 * @param threadGroup the started thread's group name, or null
 * @param stack where the parent started it ({@link RecordedStack#EMPTY} when not recorded): for a
 *     carrier the scheduler added to compensate, the blocking call of the virtual thread that made
 *     it do so
 */
public record ThreadStartEvent(
    long startNanos, String threadName, String threadGroup, RecordedStack stack) {}
