package dev.vtscope.recording;

/**
 * A {@code jdk.ExecutionSample} or {@code jdk.NativeMethodSample} of a virtual thread: it was
 * running on a carrier then, in Java code or in native code (a file read, a JNI call), which it
 * cannot unmount from.
 *
 * @param startNanos when the sample was taken, in nanoseconds since the epoch
 * @param virtualThreadId the sampled virtual thread's id
 * @param nativeCode whether it was in native code ({@code jdk.NativeMethodSample})
 * @param stack what it was running
 */
public record CpuSampleEvent(
    long startNanos, long virtualThreadId, boolean nativeCode, RecordedStack stack) {}
