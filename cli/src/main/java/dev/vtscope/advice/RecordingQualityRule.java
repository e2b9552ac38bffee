package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.List;

/** What the recording could not show, and the JFR options that would show it. */
final class RecordingQualityRule implements Rule {

  static final String PREFIX = "recording-";

  /** A short recording in which nothing was seen: a note on its length, not on the JVM. */
  static final String SHORT_ID = PREFIX + "short";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    int feature = a.feature();
    if (feature > 0 && feature < k.jdk().virtualThreadsFinalIn()) {
      return List.of();
    }
    RecordingSettings s = a.settings();
    List<Finding> findings = new ArrayList<>();
    boolean pinnedOff = !s.canShowPinning();
    if (pinnedOff) {
      findings.add(
          finding(
              k,
              "pinned-disabled",
              Severity.MEDIUM,
              Message.of("recording-pinned-disabled.title"),
              Message.of("recording-pinned-disabled.explanation"),
              List.of(
                  Message.of("recording-pinned-disabled.action.re-record"),
                  Message.of("recording.action.vtscope-record")),
              List.of(),
              "pinned-disabled"));
    }
    Long threshold = s.pinnedThresholdNanos();
    long shortest = a.pinned().durations().minNanos();
    boolean pins = a.pinned().events() > 0;
    // Pins shorter than the threshold shown were recorded: a report of several recordings shows the
    // first one's settings, and another recorded with a lower threshold. Nothing was left out.
    boolean belowThreshold = pins && threshold != null && shortest < threshold;
    if (!pinnedOff && threshold != null && threshold > 0 && !belowThreshold) {
      boolean nearThreshold = pins && shortest < k.thresholds().nearThresholdFactor() * threshold;
      if (nearThreshold || !pins) {
        findings.add(
            finding(
                k,
                "threshold",
                nearThreshold ? Severity.LOW : Severity.INFO,
                Message.of("recording-threshold.title", "threshold", Message.nanos(threshold)),
                nearThreshold
                    ? Message.of(
                        "recording-threshold.explanation.near",
                        "shortest",
                        Message.nanos(shortest),
                        "threshold",
                        Message.nanos(threshold))
                    : Message.of(
                        "recording-threshold.explanation.none",
                        "threshold",
                        Message.nanos(threshold)),
                List.of(
                    Message.of("recording-threshold.action.re-record"),
                    Message.of("recording-threshold.action.vtscope-record")),
                List.of(Evidence.nanos("threshold", threshold)),
                "threshold"));
      }
    }
    long truncated = a.pinned().truncatedStacks();
    if (truncated > 0) {
      boolean lostCulprit =
          a.pinned().sites().stream()
              .anyMatch(
                  site ->
                      site.truncatedStacks() > 0
                          && Facts.culprit(site) != null
                          && Facts.culprit(site).kind() == CulpritKind.UNKNOWN);
      findings.add(
          finding(
              k,
              "truncated-stacks",
              lostCulprit ? Severity.MEDIUM : Severity.LOW,
              Message.of(
                  "recording-truncated-stacks.title",
                  "truncated",
                  truncated,
                  "events",
                  a.pinned().events(),
                  "depth",
                  s.stackDepth() == null
                      ? ""
                      : Message.of(
                          "recording-truncated-stacks.title.depth", "depth", s.stackDepth())),
              Message.of(
                  lostCulprit
                      ? "recording-truncated-stacks.explanation.lost-culprit"
                      : "recording-truncated-stacks.explanation"),
              List.of(Message.of("recording-truncated-stacks.action.re-record")),
              List.of(Evidence.count("truncated stacks", truncated, "events")),
              "truncated-stacks"));
    }
    boolean monitorsMatter = feature == 0 || feature < k.jdk().monitorsStopPinningIn();
    if (monitorsMatter && Boolean.FALSE.equals(s.monitorEnterEnabled())) {
      findings.add(
          finding(
              k,
              "no-monitor-events",
              Severity.INFO,
              Message.of("recording-no-monitor-events.title"),
              Message.of(
                  "recording-no-monitor-events.explanation",
                  "from",
                  k.jdk().virtualThreadsFinalIn(),
                  "to",
                  k.jdk().monitorsStopPinningIn() - 1),
              List.of(Message.of("recording-no-monitor-events.action.re-record")),
              List.of(),
              null));
    }
    if (monitorsMatter && a.scheduler().carriersStarted() < 0) {
      findings.add(
          finding(
              k,
              "no-thread-starts",
              Severity.INFO,
              Message.of("recording-no-thread-starts.title"),
              Message.of("recording-no-thread-starts.explanation"),
              List.of(Message.of("recording-no-thread-starts.action.re-record")),
              List.of(),
              null));
    }
    long duration = Facts.recordingNanos(a);
    boolean nothingSeen =
        a.pinned().events() == 0
            && a.submitFailed().events() == 0
            && (a.monitorEnter() == null
                || a.monitorEnter().events() + a.monitorWait().events() == 0)
            && a.carrierWork().longRuns() == 0
            && a.carrierWork().fileIo().count() == 0
            && a.carrierWork().compensatedStarts() <= 0
            // carriers held when it ended are something seen, with no event
            && a.carriersHeldAtEnd() == 0;
    if (nothingSeen && duration > 0 && duration < k.thresholds().shortRecordingNanos()) {
      findings.add(
          finding(
              k,
              "short",
              Severity.INFO,
              Message.of("recording-short.title", "duration", Message.nanos(duration)),
              Message.of("recording-short.explanation", "duration", Message.nanos(duration)),
              List.of(Message.of("recording-short.action.record-longer")),
              List.of(Evidence.nanos("recorded", duration)),
              null));
    }
    return findings;
  }

  private static Finding finding(
      Knowledge k,
      String id,
      Severity severity,
      Message title,
      Message explanation,
      List<Message> actions,
      List<Evidence> evidence,
      String note) {
    return new Finding(
        PREFIX + id,
        severity,
        title,
        explanation,
        actions,
        evidence,
        k.jdk().virtualThreadsFinalIn() + "+",
        Facts.DOCS + PREFIX + id,
        0,
        List.of(),
        note == null ? List.of() : List.of(note));
  }
}
