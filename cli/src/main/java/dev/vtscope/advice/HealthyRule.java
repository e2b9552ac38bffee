package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.Message;
import java.util.ArrayList;
import java.util.List;

/** Nothing wrong: say so in one line, with what was checked. */
final class HealthyRule {

  static final String ID = "healthy";

  private HealthyRule() {}

  /**
   * What to do if the program hung: a pin that never ends writes no event; a thread dump in the
   * recording shows it, and says so when it does not.
   */
  private static Message ifItHangs(Analysis a) {
    CarriersAtEnd end = a.carriersAtEnd();
    if (end == null) {
      return Message.of("healthy.action.if-it-hangs");
    }
    return end.undetermined() == 0
        ? Message.of("healthy.action.if-it-hangs.dumped")
        : Message.of(
            "healthy.action.if-it-hangs.undetermined",
            "undetermined",
            end.undetermined(),
            "carriers",
            end.carriers());
  }

  static List<Finding> evaluate(Analysis a, Knowledge k, List<Finding> others) {
    if (others.stream().anyMatch(f -> f.severity().compareTo(Severity.LOW) >= 0)) {
      return List.of();
    }
    int feature = a.feature();
    if ((feature > 0 && feature < k.jdk().virtualThreadsFinalIn())
        || !a.settings().canShowPinning()) {
      return List.of();
    }
    List<Message> checked = new ArrayList<>();
    Long threshold = a.settings().pinnedThresholdNanos();
    long pins = a.pinned().events();
    checked.add(
        pins == 0
            ? Message.of(
                "healthy.no-pinning",
                "threshold",
                threshold != null && threshold > 0
                    ? Message.of(
                        "healthy.no-pinning.threshold", "threshold", Message.nanos(threshold))
                    : "")
            : Message.of(
                "healthy.no-pinning-that-matters",
                "pins",
                pins,
                "total",
                Message.nanos(a.pinned().totalNanos()),
                "lowShare",
                k.thresholds().lowCapacityShare()));
    checked.add(Message.of("healthy.no-starvation"));
    if (a.monitorsHoldCarriers()) {
      long holds =
          a.monitorEnter().events() + (a.monitorWait() == null ? 0 : a.monitorWait().events());
      long held =
          a.monitorEnter().durations().totalNanos()
              + (a.monitorWait() == null ? 0 : a.monitorWait().durations().totalNanos());
      // monitors that held carriers for too little to be a finding are said, with their figures,
      // never called none
      checked.add(
          holds == 0
              ? Message.of("healthy.no-monitor-holds")
              : Message.of(
                  "healthy.monitor-holds-that-do-not-matter",
                  "holds",
                  holds,
                  "total",
                  Message.nanos(held)));
      checked.add(Message.of("healthy.no-compensation"));
    }
    if (!Boolean.FALSE.equals(a.settings().submitFailedEnabled())) {
      checked.add(Message.of("healthy.no-rejections"));
    }
    long duration = Facts.recordingNanos(a);
    boolean monitorsUnmount = feature >= k.jdk().monitorsStopPinningIn();
    return List.of(
        new Finding(
            ID,
            Severity.INFO,
            Message.of(
                "healthy.title",
                "checked",
                checked,
                "recorded",
                duration > 0
                    ? Message.of("healthy.recorded", "duration", Message.nanos(duration))
                    : "",
                "jdk",
                feature > 0 ? Message.of("healthy.on-jdk", "feature", feature) : ""),
            monitorsUnmount
                ? Message.of("healthy.explanation.monitors-unmount", "feature", feature)
                : Message.of("healthy.explanation"),
            monitorsUnmount
                ? List.of(
                    Message.of("healthy.action.nothing-for-carriers"),
                    Message.of("healthy.action.look-for-shared-locks"),
                    ifItHangs(a))
                : List.of(Message.of("healthy.action.nothing"), ifItHangs(a)),
            List.of(Evidence.nanos("recorded", duration)),
            k.jdk().virtualThreadsFinalIn() + "+",
            Facts.DOCS + ID,
            0,
            List.of(),
            List.of("no-pinning")));
  }
}
