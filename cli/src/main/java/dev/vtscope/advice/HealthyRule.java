package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import java.util.ArrayList;
import java.util.List;

/** Nothing wrong: say so in one line, with what was checked. */
final class HealthyRule {

  static final String ID = "healthy";

  private HealthyRule() {}

  static List<Finding> evaluate(Analysis a, Knowledge k, List<Finding> others) {
    if (others.stream().anyMatch(f -> f.severity().compareTo(Severity.LOW) >= 0)) {
      return List.of();
    }
    int feature = a.feature();
    if ((feature > 0 && feature < k.jdk().virtualThreadsFinalIn())
        || Boolean.FALSE.equals(a.settings().pinnedEnabled())) {
      return List.of();
    }
    List<String> checked = new ArrayList<>();
    Long threshold = a.settings().pinnedThresholdNanos();
    long pins = a.pinned().events();
    checked.add(
        pins == 0
            ? "no pinning"
                + (threshold != null && threshold > 0
                    ? " of " + Facts.duration(threshold) + " or more"
                    : "")
            : "no pinning that matters ("
                + Facts.plural(pins, "pin")
                + ", "
                + Facts.duration(a.pinned().totalNanos())
                + " in total, under "
                + String.format(
                    java.util.Locale.ROOT, "%.1f%%", k.thresholds().lowCapacityShare() * 100)
                + " of carrier time)");
    checked.add("no carrier starvation");
    if (a.monitorsHoldCarriers()) {
      checked.add("no carriers held on monitors");
      checked.add("no carrier compensation");
    }
    if (!Boolean.FALSE.equals(a.settings().submitFailedEnabled())) {
      checked.add("no rejected tasks");
    }
    long duration = Facts.recordingNanos(a);
    String scope =
        (duration > 0 ? " in " + Facts.duration(duration) + " recorded" : "")
            + (feature > 0 ? " on JDK " + feature : "");
    boolean monitorsUnmount = feature >= k.jdk().monitorsStopPinningIn();
    String explanation =
        monitorsUnmount
            ? "On JDK "
                + feature
                + " synchronized no longer pins (JEP 491). A contended lock still serialises"
                + " work, yet leaves no trace here: a virtual thread that unmounts to wait for a"
                + " monitor writes no jdk.JavaMonitorEnter event (vtscope's JDK 25 sample of 200"
                + " tasks queued on one lock has none)."
            : "Virtual threads ran without holding their carriers long enough to be recorded.";
    List<String> actions =
        monitorsUnmount
            ? List.of(
                "Nothing to change for the carriers.",
                "If throughput is below what you expect, look for synchronized shared by many"
                    + " virtual threads (a connection, a logger, a cache): waiting for it is"
                    + " invisible in this recording.")
            : List.of("Nothing to change.");
    return List.of(
        new Finding(
            ID,
            Severity.INFO,
            "Healthy: " + String.join(", ", checked) + scope,
            explanation,
            actions,
            List.of(Evidence.nanos("recorded", duration)),
            k.jdk().virtualThreadsFinalIn() + "+",
            Facts.DOCS + ID,
            0,
            List.of(),
            List.of("no-pinning")));
  }
}
