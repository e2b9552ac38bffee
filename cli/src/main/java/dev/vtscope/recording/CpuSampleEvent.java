package dev.vtscope.recording;

/**
 * A {@code jdk.ExecutionSample} of a virtual thread: it was running Java code on a carrier then.
 *
 * @param startNanos when the sample was taken, in nanoseconds since the epoch
 * @param virtualThreadId the sampled virtual thread's id
 * @param stack what it was running
 */
public record CpuSampleEvent(long startNanos, long virtualThreadId, RecordedStack stack) {}
