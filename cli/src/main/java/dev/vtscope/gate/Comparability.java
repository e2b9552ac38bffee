package dev.vtscope.gate;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Note;
import dev.vtscope.analysis.RecordingSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What makes two recordings unlike each other, so that a difference between them may not be the
 * code's: a side that could record no pin, different event thresholds, stack depths, JDK releases,
 * or very different lengths. A diff says these before its sites, as notes.
 */
final class Comparability {

  /** Lengths further apart than this factor are very different: totals grow with the length. */
  static final double LENGTH_FACTOR = 2;

  private Comparability() {}

  static List<Note> notes(Analysis before, Analysis after) {
    List<Note> notes = new ArrayList<>();
    List<String> beforeOff = before.recordingsWithoutPinning();
    List<String> afterOff = after.recordingsWithoutPinning();
    if (!beforeOff.isEmpty() || !afterOff.isEmpty()) {
      List<String> off = new ArrayList<>(beforeOff);
      off.addAll(afterOff);
      notes.add(
          warning(
              "diff-pinned-off",
              Message.of(
                  "note.diff-pinned-off",
                  "side",
                  Message.of(
                      afterOff.isEmpty()
                          ? "note.diff-pinned-off.before"
                          : beforeOff.isEmpty()
                              ? "note.diff-pinned-off.after"
                              : "note.diff-pinned-off.both"),
                  "recordings",
                  List.copyOf(off))));
    }
    RecordingSettings b = before.settings();
    RecordingSettings a = after.settings();
    if (b != null && a != null) {
      if (beforeOff.isEmpty() && afterOff.isEmpty()) {
        // the threshold of an event that was off says nothing of what was recorded
        threshold(notes, "jdk.VirtualThreadPinned", b, a, RecordingSettings::pinnedThresholdNanos);
      }
      threshold(notes, "jdk.JavaMonitorEnter", b, a, RecordingSettings::monitorEnterThresholdNanos);
      threshold(notes, "jdk.JavaMonitorWait", b, a, RecordingSettings::monitorWaitThresholdNanos);
      if (b.stackDepth() != null
          && a.stackDepth() != null
          && !b.stackDepth().equals(a.stackDepth())) {
        notes.add(
            warning(
                "diff-stack-depth",
                Message.of(
                    "note.diff-stack-depth",
                    "before",
                    b.stackDepth(),
                    "after",
                    a.stackDepth(),
                    "shorter",
                    Math.min(b.stackDepth(), a.stackDepth()))));
      }
    }
    if (before.feature() > 0 && after.feature() > 0 && before.feature() != after.feature()) {
      notes.add(
          warning(
              "diff-jdk",
              Message.of("note.diff-jdk", "before", before.feature(), "after", after.feature())));
    }
    long beforeLength = length(before);
    long afterLength = length(after);
    if (beforeLength > 0
        && afterLength > 0
        && Math.max(beforeLength, afterLength)
            > LENGTH_FACTOR * Math.min(beforeLength, afterLength)) {
      notes.add(
          warning(
              "diff-length",
              Message.of(
                  "note.diff-length",
                  "before",
                  Message.nanos(beforeLength),
                  "after",
                  Message.nanos(afterLength))));
    }
    return notes;
  }

  private static void threshold(
      List<Note> notes,
      String event,
      RecordingSettings before,
      RecordingSettings after,
      Function<RecordingSettings, Long> threshold) {
    Long b = threshold.apply(before);
    Long a = threshold.apply(after);
    if (b == null || a == null || Objects.equals(b, a)) {
      return;
    }
    notes.add(
        warning(
            "diff-threshold",
            Message.of(
                "note.diff-threshold",
                "event",
                event,
                "before",
                Message.nanos(b),
                "after",
                Message.nanos(a),
                "higher",
                Message.nanos(Math.max(a, b)))));
  }

  /** From the start of the first recording to the end of the last, summed over the inputs. */
  static long length(Analysis a) {
    return a.inputs().stream().mapToLong(InputFacts::durationNanos).sum();
  }

  private static Note warning(String id, Message message) {
    return new Note(id, Note.Severity.WARNING, message);
  }
}
