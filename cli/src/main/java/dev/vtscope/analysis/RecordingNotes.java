package dev.vtscope.analysis;

import dev.vtscope.analysis.Note.Severity;
import dev.vtscope.attribution.BlockingCall;
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
    if (!s.canShowPinning()) {
      notes.add(note("pinned-disabled", Severity.WARNING));
    } else if (s.pinnedEnabled() == null
        && (feature == 0 || feature >= jdk.virtualThreadsFinalIn())) {
      notes.add(note("pinned-setting-unknown", Severity.INFO));
    }
    if (s.pinnedThresholdNanos() != null && s.pinnedThresholdNanos() > 0 && s.canShowPinning()) {
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
    if (a.pinned().events() == 0 && s.canShowPinning()) {
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
              "blocked",
              compensationCauses(a),
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

  /**
   * What the carriers the scheduler started were compensating for, from their start stacks: each
   * blocking call with how many starts it caused, most first (three at most); without start stacks,
   * the calls it can be.
   */
  private static Message compensationCauses(Analysis a) {
    List<Message> causes = new ArrayList<>();
    if (a.carrierWork() != null) {
      List<Site> sites = new ArrayList<>(a.carrierWork().compensationSites());
      sites.sort((x, y) -> Long.compare(y.durations().count(), x.durations().count()));
      for (Site site : sites) {
        BlockingCall call = site.attribution() == null ? null : site.attribution().blockedIn();
        if (call == null || causes.size() == 3) {
          continue;
        }
        causes.add(
            Message.of(
                "note.compensation.cause",
                "starts",
                site.durations().count(),
                "call",
                CarrierWork.blockedIn(call)));
      }
    }
    return causes.isEmpty()
        ? Message.of("note.compensation.blocked-unknown")
        : Message.of("note.compensation.blocked", "causes", causes);
  }

  /** A note whose statement is {@code note.ID}. */
  static Note note(String id, Severity severity, Object... figures) {
    return new Note(id, severity, Message.of("note." + id, figures));
  }

  /**
   * What a report of several recordings says of them as a whole: that their JDKs, JFR settings or
   * schedulers differ (each value once, with how many recordings had it and, for all but the most
   * common, which), and in which recording most carriers were held at once, since carriers are
   * counted within each recording.
   *
   * @param inputs the recordings, each with its own figures
   * @param first the analysis whose settings and scheduler lines the report shows
   * @param worst the name of the recording that held most carriers at once, or null when none held
   *     one
   */
  static List<Note> merged(List<InputFacts> inputs, Analysis first, String worst) {
    if (inputs.size() < 2) {
      return List.of();
    }
    List<Note> notes = new ArrayList<>();
    if (inputs.stream().map(i -> i.jvm() == null ? 0 : i.jvm().feature()).distinct().count() > 1) {
      notes.add(note("mixed-jdks", Severity.INFO));
    }
    java.util.Map<String, List<String>> bySettings = new java.util.LinkedHashMap<>();
    java.util.Map<String, Message> settingsWords = new java.util.HashMap<>();
    java.util.Set<String> schedulers = new java.util.HashSet<>();
    for (InputFacts input : inputs) {
      RecordingFigures f = input.figures();
      RecordingSettings s = f == null ? null : f.settings();
      Long threshold = s == null ? null : s.pinnedThresholdNanos();
      Integer depth = s == null ? null : s.stackDepth();
      String key = threshold + "/" + depth;
      bySettings.computeIfAbsent(key, k -> new ArrayList<>()).add(input.name());
      settingsWords.computeIfAbsent(
          key,
          k ->
              Message.of(
                  "note.merged-settings.value",
                  "threshold",
                  threshold == null ? "unknown" : Message.nanos(threshold),
                  "depth",
                  depth == null ? "unknown" : depth));
      if (f != null) {
        schedulers.add(
            f.scheduler().parallelism().value() + "/" + f.scheduler().maxPoolSize().value());
      }
    }
    if (bySettings.size() > 1) {
      List<java.util.Map.Entry<String, List<String>>> groups =
          new ArrayList<>(bySettings.entrySet());
      // the most common first, and when it has many, counted alone: the others name theirs
      groups.sort((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size()));
      List<Message> each = new ArrayList<>();
      for (int g = 0; g < groups.size(); g++) {
        List<String> names = groups.get(g).getValue();
        List<String> shown = names.subList(0, Math.min(RecordingSet.NAMED, names.size()));
        each.add(
            Message.of(
                "note.merged-settings.group",
                "value",
                settingsWords.get(groups.get(g).getKey()),
                "count",
                names.size(),
                "names",
                g == 0 && names.size() > RecordingSet.NAMED
                    ? ""
                    : Message.of(
                        "note.merged-settings.names",
                        "names",
                        List.copyOf(shown),
                        "more",
                        names.size() > shown.size()
                            ? Message.of(
                                "note.in-recordings.more", "more", names.size() - shown.size())
                            : "")));
      }
      notes.add(
          note(
              "merged-settings",
              Note.Severity.INFO,
              "each",
              each,
              "first",
              first.inputs().get(0).name()));
    }
    if (schedulers.size() > 1) {
      notes.add(
          note("merged-scheduler", Note.Severity.INFO, "first", first.inputs().get(0).name()));
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
