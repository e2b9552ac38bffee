package dev.vtscope.attribution;

import dev.vtscope.recording.Frame;
import java.util.List;

/**
 * Who to blame for one stack.
 *
 * @param culprit who holds the carrier
 * @param otherMonitorFrames further monitors held by the same stack, innermost first
 * @param waitedAt where the thread waited: the first frame outside the JDK, or null
 * @param calledFrom the application frame that called into the culprit's library, or for a JDK
 *     culprit the first frame outside the JDK that called in; null when there is none
 * @param calledFromArtifact the library that owns {@code calledFrom}, when a jar is known
 * @param owners the owner of each frame of the stack, in stack order
 * @param blockedIn for a carrier the scheduler started to compensate, the JDK call the blocked
 *     thread was in; null otherwise or when the stack does not show it
 */
public record Attribution(
    Culprit culprit,
    List<MonitorFrame> otherMonitorFrames,
    Frame waitedAt,
    Frame calledFrom,
    Artifact calledFromArtifact,
    List<Owner> owners,
    BlockingCall blockedIn) {

  public Attribution {
    otherMonitorFrames = List.copyOf(otherMonitorFrames);
    owners = List.copyOf(owners);
  }

  /** The key sites are grouped by with {@code --group-by culprit}. */
  public String groupingKey() {
    return culprit.kind()
        + " "
        + culprit.stableMethod()
        + (culprit.lineRange() != null ? " " + culprit.lineRange() : "")
        + (culprit.kind() == CulpritKind.UNKNOWN && culprit.detail() != null
            ? " " + culprit.detail()
            : "");
  }
}
