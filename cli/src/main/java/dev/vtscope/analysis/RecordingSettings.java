package dev.vtscope.analysis;

/**
 * The JFR settings in force for the events vtscope reads; null where the recording does not say.
 *
 * @param pinnedEnabled whether {@code jdk.VirtualThreadPinned} was enabled
 * @param pinnedThresholdNanos its threshold: shorter pins were not recorded
 * @param submitFailedEnabled whether {@code jdk.VirtualThreadSubmitFailed} was enabled
 * @param monitorEnterEnabled whether {@code jdk.JavaMonitorEnter} was enabled
 * @param monitorEnterThresholdNanos its threshold
 * @param monitorWaitEnabled whether {@code jdk.JavaMonitorWait} was enabled
 * @param monitorWaitThresholdNanos its threshold
 * @param stackDepth the recording's stack depth: as recorded, or the length of its truncated
 *     stacks; null when neither tells
 */
public record RecordingSettings(
    Boolean pinnedEnabled,
    Long pinnedThresholdNanos,
    Boolean submitFailedEnabled,
    Boolean monitorEnterEnabled,
    Long monitorEnterThresholdNanos,
    Boolean monitorWaitEnabled,
    Long monitorWaitThresholdNanos,
    Integer stackDepth) {

  /**
   * Whether a pin could have been recorded: not when {@code jdk.VirtualThreadPinned} was off. A
   * recording that does not say is taken to have had it on, as JFR's own settings have it. Every
   * verdict that rests on pins (notes, findings, check, diff) asks this, and only this.
   */
  public boolean canShowPinning() {
    return !Boolean.FALSE.equals(pinnedEnabled);
  }
}
