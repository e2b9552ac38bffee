package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.List;

/** What the recording could not show, and the JFR options that would show it. */
final class RecordingQualityRule implements Rule {

  static final String PREFIX = "recording-";
  private static final String RECORD = "-XX:StartFlightRecording:filename=vt.jfr,";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    int feature = a.feature();
    if (feature > 0 && feature < k.jdk().virtualThreadsFinalIn()) {
      return List.of();
    }
    RecordingSettings s = a.settings();
    List<Finding> findings = new ArrayList<>();
    boolean pinnedOff = Boolean.FALSE.equals(s.pinnedEnabled());
    if (pinnedOff) {
      findings.add(
          finding(
              k,
              "pinned-disabled",
              Severity.MEDIUM,
              "jdk.VirtualThreadPinned was off: this recording cannot show pinning",
              "The event that records pins was disabled, so no pinned event could be written.",
              List.of(
                  "Re-record with "
                      + RECORD
                      + "jdk.VirtualThreadPinned#enabled=true,jdk.VirtualThreadPinned#threshold=0ms",
                  "or let vtscope record it: vtscope record -- java …"),
              List.of(),
              "pinned-disabled"));
    }
    Long threshold = s.pinnedThresholdNanos();
    if (!pinnedOff && threshold != null && threshold > 0) {
      long shortest = a.pinned().durations().minNanos();
      boolean pins = a.pinned().events() > 0;
      boolean nearThreshold = pins && shortest < k.thresholds().nearThresholdFactor() * threshold;
      if (nearThreshold || !pins) {
        findings.add(
            finding(
                k,
                "threshold",
                nearThreshold ? Severity.LOW : Severity.INFO,
                "Pins shorter than " + Facts.duration(threshold) + " were not recorded",
                nearThreshold
                    ? "The shortest recorded pins ("
                        + Facts.duration(shortest)
                        + ") are close to the threshold of "
                        + Facts.duration(threshold)
                        + ": shorter pins at the same places were probably cut off, so the"
                        + " totals here are lower bounds."
                    : "No pin reached the threshold of "
                        + Facts.duration(threshold)
                        + "; shorter ones, if any, were not written.",
                List.of(
                    "Re-record with "
                        + RECORD
                        + "jdk.VirtualThreadPinned#threshold=0ms (or 1ms to keep the file"
                        + " small)",
                    "or let vtscope record it: vtscope record --pinned-threshold 0ms -- java …"),
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
              truncated
                  + " of "
                  + a.pinned().events()
                  + " pinned stacks were truncated"
                  + (s.stackDepth() == null ? "" : " at depth " + s.stackDepth()),
              "JFR keeps only the innermost frames; the frame that holds the carrier can be beyond"
                  + " them"
                  + (lostCulprit ? ", and for some sites no culprit was found." : "."),
              List.of("Re-record with -XX:FlightRecorderOptions:stackdepth=256"),
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
              "jdk.JavaMonitorEnter was off: carriers blocked entering monitors are invisible",
              "On JDK "
                  + k.jdk().virtualThreadsFinalIn()
                  + "-"
                  + (k.jdk().monitorsStopPinningIn() - 1)
                  + " a virtual thread waiting for a monitor holds its carrier without a pinned"
                  + " event; only jdk.JavaMonitorEnter shows it.",
              List.of(
                  "Re-record with "
                      + RECORD
                      + "jdk.JavaMonitorEnter#enabled=true,jdk.JavaMonitorWait#enabled=true"),
              List.of(),
              null));
    }
    if (monitorsMatter && a.scheduler().carriersStarted() < 0) {
      findings.add(
          finding(
              k,
              "no-thread-starts",
              Severity.INFO,
              "jdk.ThreadStart was off: carrier compensation cannot be seen",
              "The scheduler starts extra carriers when virtual threads block in Object.wait();"
                  + " only thread-start events show how many.",
              List.of("Re-record with " + RECORD + "jdk.ThreadStart#enabled=true"),
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
            && a.carrierWork().compensatedStarts() <= 0;
    if (nothingSeen && duration > 0 && duration < k.thresholds().shortRecordingNanos()) {
      findings.add(
          finding(
              k,
              "short",
              Severity.INFO,
              "A short recording: " + Facts.duration(duration),
              "Nothing was seen in "
                  + Facts.duration(duration)
                  + ", which may not include the load that pins.",
              List.of(
                  "Record for longer, under the load you care about (duration=…, or stop it with"
                      + " jcmd PID JFR.stop)."),
              List.of(Evidence.nanos("recorded", duration)),
              null));
    }
    return findings;
  }

  private static Finding finding(
      Knowledge k,
      String id,
      Severity severity,
      String title,
      String explanation,
      List<String> actions,
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
