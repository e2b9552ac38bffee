package dev.vtscope.recording;

/**
 * A {@code jdk.JavaMonitorEnter} or {@code jdk.JavaMonitorWait} event from a virtual thread. Before
 * JDK 24 both keep the carrier although no pinned event is written.
 *
 * @param kind enter or wait
 * @param startNanos start, in nanoseconds since the epoch
 * @param durationNanos how long the thread blocked
 * @param virtualThreadId the virtual thread's Java thread id
 * @param monitorClass the class of the monitor object, or null
 * @param stack where the thread entered or waited
 */
public record MonitorEvent(
    Kind kind,
    long startNanos,
    long durationNanos,
    long virtualThreadId,
    String monitorClass,
    RecordedStack stack) {

  /** Which monitor operation blocked. */
  public enum Kind {
    ENTER,
    WAIT
  }
}
