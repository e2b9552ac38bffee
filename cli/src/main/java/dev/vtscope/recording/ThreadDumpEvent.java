package dev.vtscope.recording;

/**
 * A {@code jdk.ThreadDump} event: the JVM's platform threads as {@code jcmd Thread.print} prints
 * them. JFR's default settings write one when a chunk begins and one when it ends, so the recording
 * of a JVM that has stopped answering ({@code jcmd JFR.dump}) ends with one: a pin that has not
 * ended has no {@code jdk.VirtualThreadPinned} yet, but its carrier is in the dump.
 *
 * @param startNanos when, in nanoseconds since the epoch
 * @param text the dump as the JVM wrote it
 */
public record ThreadDumpEvent(long startNanos, String text) {}
