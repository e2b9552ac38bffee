package dev.vtscope.analysis;

import dev.vtscope.analysis.Note.Severity;
import java.util.ArrayList;
import java.util.List;

/** Says plainly what a recording can and cannot show, so the user need not infer it. */
final class RecordingNotes {

  private RecordingNotes() {}

  static List<Note> of(Analysis a, JdkReleases jdk) {
    List<Note> notes = new ArrayList<>();
    for (InputFacts input : a.inputs()) {
      if (input.problem() != null) {
        notes.add(
            note(
                "partial-read",
                Severity.WARNING,
                "input",
                input.name(),
                "problem",
                input.problem()));
      }
      for (String note : input.readNotes()) {
        boolean live = note.contains("still being written");
        notes.add(
            live
                ? note("in-progress", Severity.INFO, "input", input.name(), "detail", note)
                : note("damaged-data", Severity.WARNING, "input", input.name(), "detail", note));
      }
    }
    if (a.inputs().stream().map(i -> i.jvm() == null ? 0 : i.jvm().feature()).distinct().count()
        > 1) {
      notes.add(note("mixed-jdks", Severity.INFO));
    }
    int feature = a.feature();
    if (a.jvm() == null) {
      notes.add(note("jvm-unknown", Severity.WARNING));
    } else if (feature > 0 && feature < jdk.virtualThreadsPreviewIn()) {
      notes.add(
          note(
              "no-virtual-threads",
              Severity.WARNING,
              "feature",
              feature,
              "finalIn",
              jdk.virtualThreadsFinalIn()));
      return notes;
    } else if (feature >= jdk.virtualThreadsPreviewIn() && feature < jdk.virtualThreadsFinalIn()) {
      notes.add(
          note(
              "preview",
              Severity.INFO,
              "feature",
              feature,
              "finalIn",
              jdk.virtualThreadsFinalIn()));
    }
    if (a.groupBy() == GroupBy.REASON
        && a.pinned().sites().stream().anyMatch(site -> site.reason() == null)) {
      boolean older = feature > 0 && feature < jdk.pinnedReasonRecordedIn();
      notes.add(
          note(
              "no-pinned-reason",
              Severity.INFO,
              "recordedIn",
              jdk.pinnedReasonRecordedIn(),
              "which",
              older
                  ? Message.of("note.no-pinned-reason.older", "feature", feature)
                  : Message.of("note.no-pinned-reason.without")));
    }
    RecordingSettings s = a.settings();
    if (Boolean.FALSE.equals(s.pinnedEnabled())) {
      notes.add(note("pinned-disabled", Severity.WARNING));
    } else if (s.pinnedEnabled() == null
        && (feature == 0 || feature >= jdk.virtualThreadsFinalIn())) {
      notes.add(note("pinned-setting-unknown", Severity.INFO));
    }
    if (s.pinnedThresholdNanos() != null
        && s.pinnedThresholdNanos() > 0
        && !Boolean.FALSE.equals(s.pinnedEnabled())) {
      notes.add(
          note("threshold", Severity.INFO, "threshold", Message.nanos(s.pinnedThresholdNanos())));
    }
    long truncated = a.pinned().truncatedStacks();
    if (truncated > 0) {
      notes.add(
          note(
              "truncated-stacks",
              Severity.WARNING,
              "truncated",
              truncated,
              "events",
              a.pinned().events(),
              "depth",
              s.stackDepth() == null
                  ? ""
                  : Message.of("note.truncated-stacks.depth", "depth", s.stackDepth())));
    }
    if (a.pinned().events() == 0 && !Boolean.FALSE.equals(s.pinnedEnabled())) {
      Long threshold = s.pinnedThresholdNanos();
      Object why;
      if (!jdk.monitorsHoldCarrier(feature)) {
        why = Message.of("note.no-pinning.monitors-unmount", "feature", feature);
      } else if (a.monitorEnter() != null
          && a.monitorEnter().events() + a.monitorWait().events() > 0) {
        why = Message.of("note.no-pinning.monitors-held");
      } else {
        why = "";
      }
      notes.add(
          note(
              "no-pinning",
              Severity.INFO,
              "atOrAbove",
              threshold != null && threshold > 0
                  ? Message.of("note.no-pinning.at-or-above", "threshold", Message.nanos(threshold))
                  : "",
              "why",
              why));
    }
    if (Boolean.FALSE.equals(s.submitFailedEnabled())) {
      notes.add(note("submit-failed-disabled", Severity.INFO));
    }
    int started = a.scheduler().carriersStarted();
    int parallelism = a.scheduler().parallelism().value();
    int maxPool = a.scheduler().maxPoolSize().value();
    if (parallelism > 0 && started > parallelism) {
      long waits = a.monitorWait() == null ? 0 : a.monitorWait().events();
      boolean exhausted = maxPool > 0 && started >= maxPool;
      notes.add(
          note(
              "compensation",
              exhausted ? Severity.WARNING : Severity.INFO,
              "started",
              started,
              "parallelism",
              parallelism,
              "maxPool",
              maxPool > 0 ? Message.of("note.compensation.max-pool", "maxPoolSize", maxPool) : "",
              "waits",
              waits > 0 ? Message.of("note.compensation.waits", "waits", waits) : "",
              "end",
              Message.of(exhausted ? "note.compensation.exhausted" : "note.compensation.end")));
    }
    if (a.scheduler().parallelism().source() == SchedulerSetting.Source.ASSUMED_DEFAULT) {
      notes.add(note("scheduler-assumed", Severity.INFO));
    }
    return notes;
  }

  /** A note whose statement is {@code note.ID}. */
  static Note note(String id, Severity severity, Object... figures) {
    return new Note(id, severity, Message.of("note." + id, figures));
  }

  /**
   * What a report of several recordings shows from one of them: the settings and scheduler lines
   * come from the first (with a JVM), and carriers at once are counted within each recording, so
   * the figures are those of the one that held most.
   *
   * @param names each recording's name
   * @param settings each one's recording settings, in the same order
   * @param schedulers each one's scheduler settings, in the same order
   * @param first the name of the recording whose settings the report shows
   * @param worst the name of the recording that held most carriers at once
   */
  static List<Note> merged(
      List<String> names,
      List<RecordingSettings> settings,
      List<SchedulerSettings> schedulers,
      String first,
      String worst) {
    if (names.size() < 2) {
      return List.of();
    }
    List<Note> notes = new ArrayList<>();
    if (settings.stream().distinct().count() > 1) {
      List<Message> each = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        RecordingSettings s = settings.get(i);
        each.add(
            Message.of(
                "note.merged-settings.each",
                "input",
                names.get(i),
                "threshold",
                s.pinnedThresholdNanos() == null
                    ? "unknown"
                    : Message.nanos(s.pinnedThresholdNanos()),
                "depth",
                s.stackDepth() == null ? "unknown" : s.stackDepth()));
      }
      notes.add(note("merged-settings", Note.Severity.INFO, "each", each, "first", first));
    }
    if (schedulers.stream()
            .map(c -> c.parallelism().value() + "/" + c.maxPoolSize().value())
            .distinct()
            .count()
        > 1) {
      notes.add(note("merged-scheduler", Note.Severity.INFO, "first", first));
    }
    // no recording held a carrier at once: naming one would point at a recording for nothing
    notes.add(
        note(
            "merged-carriers",
            Note.Severity.INFO,
            "where",
            worst == null
                ? Message.of("note.merged-carriers.none")
                : Message.of("note.merged-carriers.worst", "worst", worst),
            "worst",
            worst == null ? "" : worst));
    return notes;
  }
}
