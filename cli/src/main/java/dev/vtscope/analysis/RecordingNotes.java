package dev.vtscope.analysis;

import dev.vtscope.analysis.Note.Severity;
import java.util.ArrayList;
import java.util.List;

/** Says plainly what a recording can and cannot show, so the user need not infer it. */
final class RecordingNotes {

  private static final String PINNED = "jdk.VirtualThreadPinned";

  private RecordingNotes() {}

  static List<Note> of(Analysis a, JdkReleases jdk) {
    List<Note> notes = new ArrayList<>();
    for (InputFacts input : a.inputs()) {
      if (input.problem() != null) {
        notes.add(
            new Note(
                "partial-read", Severity.WARNING, input.name() + ": " + input.problem() + "."));
      }
      for (String note : input.readNotes()) {
        boolean live = note.contains("still being written");
        notes.add(
            new Note(
                live ? "in-progress" : "damaged-data",
                live ? Severity.INFO : Severity.WARNING,
                input.name() + ": " + note + "."));
      }
    }
    if (a.inputs().stream().map(i -> i.jvm() == null ? 0 : i.jvm().feature()).distinct().count()
        > 1) {
      notes.add(
          new Note(
              "mixed-jdks",
              Severity.INFO,
              "The recordings come from different JDK releases; the recording facts shown are those of the first."));
    }
    int feature = a.feature();
    if (a.jvm() == null) {
      notes.add(
          new Note(
              "jvm-unknown",
              Severity.WARNING,
              "The recording has no jdk.JVMInformation event: the JDK release, and so which pins are possible, is unknown."));
    } else if (feature > 0 && feature < jdk.virtualThreadsPreviewIn()) {
      notes.add(
          new Note(
              "no-virtual-threads",
              Severity.WARNING,
              "This recording comes from JDK "
                  + feature
                  + ", which has no virtual threads: there is nothing to pin. Record on JDK "
                  + jdk.virtualThreadsFinalIn()
                  + " or later."));
      return notes;
    } else if (feature >= jdk.virtualThreadsPreviewIn() && feature < jdk.virtualThreadsFinalIn()) {
      notes.add(
          new Note(
              "preview",
              Severity.INFO,
              "JDK "
                  + feature
                  + " had virtual threads as a preview feature; JDK "
                  + jdk.virtualThreadsFinalIn()
                  + " made them final."));
    }
    if (a.groupBy() == GroupBy.REASON
        && a.pinned().sites().stream().anyMatch(site -> site.reason() == null)) {
      notes.add(
          new Note(
              "no-pinned-reason",
              Severity.INFO,
              "Pinned events record their reason from JDK "
                  + jdk.pinnedReasonRecordedIn()
                  + " on; "
                  + (feature > 0 && feature < jdk.pinnedReasonRecordedIn()
                      ? "this JDK " + feature + " recording's"
                      : "those without one")
                  + " are grouped by culprit instead."));
    }
    RecordingSettings s = a.settings();
    if (Boolean.FALSE.equals(s.pinnedEnabled())) {
      notes.add(
          new Note(
              "pinned-disabled",
              Severity.WARNING,
              PINNED
                  + " was disabled in this recording, so pinning cannot be seen. Re-record with it enabled"
                  + " (vtscope record, or -XX:StartFlightRecording with settings that enable it)."));
    } else if (s.pinnedEnabled() == null
        && (feature == 0 || feature >= jdk.virtualThreadsFinalIn())) {
      notes.add(
          new Note(
              "pinned-setting-unknown",
              Severity.INFO,
              "The recording does not say whether "
                  + PINNED
                  + " was enabled (no jdk.ActiveSetting events)."));
    }
    if (s.pinnedThresholdNanos() != null
        && s.pinnedThresholdNanos() > 0
        && !Boolean.FALSE.equals(s.pinnedEnabled())) {
      notes.add(
          new Note(
              "threshold",
              Severity.INFO,
              "Pins shorter than "
                  + HumanDurations.format(s.pinnedThresholdNanos())
                  + " were not recorded (the threshold of "
                  + PINNED
                  + "); to see them too, re-record with "
                  + PINNED
                  + "#threshold=0 ms."));
    }
    long truncated = a.pinned().truncatedStacks();
    if (truncated > 0) {
      String depth = s.stackDepth() == null ? "" : " (stack depth " + s.stackDepth() + ")";
      notes.add(
          new Note(
              "truncated-stacks",
              Severity.WARNING,
              truncated
                  + " of "
                  + a.pinned().events()
                  + " pinned events have truncated stacks"
                  + depth
                  + ": the frames that hold the carrier may be cut off. Re-record with"
                  + " -XX:FlightRecorderOptions:stackdepth=256."));
    }
    if (a.pinned().events() == 0 && !Boolean.FALSE.equals(s.pinnedEnabled())) {
      StringBuilder message = new StringBuilder("No pinned virtual threads were recorded");
      if (s.pinnedThresholdNanos() != null && s.pinnedThresholdNanos() > 0) {
        message.append(" at or above ").append(HumanDurations.format(s.pinnedThresholdNanos()));
      }
      message.append('.');
      if (!jdk.monitorsHoldCarrier(feature)) {
        message.append(
            " On JDK "
                + feature
                + " monitors (synchronized) no longer pin; only native frames and class initialisation can."
                + " Waiting for a contended monitor unmounts and writes no event, so lock contention"
                + " does not show here.");
      } else if (a.monitorEnter() != null
          && a.monitorEnter().events() + a.monitorWait().events() > 0) {
        message.append(
            " Virtual threads still held their carriers while blocked on monitors: see the monitor enter and wait sections.");
      }
      notes.add(new Note("no-pinning", Severity.INFO, message.toString()));
    }
    if (Boolean.FALSE.equals(s.submitFailedEnabled())) {
      notes.add(
          new Note(
              "submit-failed-disabled",
              Severity.INFO,
              "jdk.VirtualThreadSubmitFailed was disabled: rejected tasks cannot be seen in this recording."));
    }
    int started = a.scheduler().carriersStarted();
    int parallelism = a.scheduler().parallelism().value();
    int maxPool = a.scheduler().maxPoolSize().value();
    if (parallelism > 0 && started > parallelism) {
      long waits = a.monitorWait() == null ? 0 : a.monitorWait().events();
      notes.add(
          new Note(
              "compensation",
              maxPool > 0 && started >= maxPool ? Severity.WARNING : Severity.INFO,
              "The scheduler started "
                  + started
                  + " carrier threads for a parallelism of "
                  + parallelism
                  + (maxPool > 0 ? " (maxPoolSize " + maxPool + ")" : "")
                  + ": it compensates for carriers blocked in Object.wait() or file I/O"
                  + (waits > 0
                      ? " (" + waits + " monitor waits of virtual threads were recorded)"
                      : "")
                  + (maxPool > 0 && started >= maxPool
                      ? "; at maxPoolSize no carrier is left and virtual threads can stall."
                      : ".")));
    }
    if (a.scheduler().parallelism().source() == SchedulerSetting.Source.ASSUMED_DEFAULT) {
      notes.add(
          new Note(
              "scheduler-assumed",
              Severity.INFO,
              "The recording has no system properties (jdk.InitialSystemProperty): the scheduler's"
                  + " default settings are assumed."));
    }
    return notes;
  }
}
