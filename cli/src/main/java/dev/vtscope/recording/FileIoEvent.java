package dev.vtscope.recording;

/**
 * A {@code jdk.FileRead} or {@code jdk.FileWrite} event of a virtual thread: blocking file I/O,
 * which keeps the carrier for its whole duration. The file's path is not kept.
 *
 * @param startNanos when it started, in nanoseconds since the epoch
 * @param durationNanos how long it took
 * @param virtualThreadId the virtual thread's id
 * @param write whether it wrote (else it read)
 * @param bytes bytes read or written, or -1 when not recorded
 * @param stack where it was called
 */
public record FileIoEvent(
    long startNanos,
    long durationNanos,
    long virtualThreadId,
    boolean write,
    long bytes,
    RecordedStack stack) {}
