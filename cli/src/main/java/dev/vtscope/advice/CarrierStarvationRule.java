package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Concurrency;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Every carrier held at once: no virtual thread could run, whatever the CPUs were doing. */
final class CarrierStarvationRule implements Rule {

  static final String ID = "carrier-starvation";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    Concurrency c = a.carriers();
    int parallelism = Facts.parallelism(a);
    if (c == null || parallelism <= 0 || c.saturatedNanos() < k.thresholds().starvationMinNanos()) {
      return List.of();
    }
    long duration = Facts.recordingNanos(a);
    double share = duration > 0 ? c.saturatedNanos() / (double) duration : -1;
    Severity severity =
        share < 0 || share >= k.thresholds().highCapacityShare()
            ? Severity.HIGH
            : share >= k.thresholds().mediumCapacityShare() ? Severity.MEDIUM : Severity.LOW;
    Set<String> culprits = new LinkedHashSet<>();
    List<String> classes = new ArrayList<>();
    List<Site> sites = new ArrayList<>(a.pinned().sites());
    if (a.monitorEnter() != null) {
      sites.addAll(a.monitorEnter().sites());
    }
    sites.sort((x, y) -> Long.compare(y.durations().totalNanos(), x.durations().totalNanos()));
    for (Site site : sites) {
      Culprit culprit = Facts.culprit(site);
      // Neither a site too brief to matter nor the JDK's warm-up (both info findings) is what to
      // fix first.
      boolean warmUp = culprit != null && culprit.isWarmUp(site.stack().frames());
      boolean matters = !warmUp && Facts.severity(a, k, List.of(site)).compareTo(Severity.LOW) >= 0;
      if (culprit != null
          && matters
          && culprits.size() < 3
          && culprits.add(culprit.qualifiedMethod())) {
        classes.add(culprit.className());
      }
    }
    boolean monitors = a.monitorsHoldCarriers() && a.monitorEnter().events() > 0;
    List<Message> actions = new ArrayList<>();
    actions.add(
        Message.of(
            "carrier-starvation.action.fix-holders",
            "culprits",
            culprits.isEmpty()
                ? ""
                : Message.of(
                    "carrier-starvation.action.fix-holders.largest",
                    "culprits",
                    List.copyOf(culprits))));
    actions.add(Message.of("carrier-starvation.action.pool"));
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.nanos("time with every carrier held", c.saturatedNanos()));
    if (share >= 0) {
      evidence.add(Evidence.text("share of the recording", Facts.percent(share)));
    }
    evidence.add(Evidence.count("peak carriers held at once", c.peak(), "carriers"));
    evidence.add(Evidence.count("parallelism", parallelism, "carriers"));
    return List.of(
        new Finding(
            ID,
            severity,
            Message.of(
                "carrier-starvation.title",
                "saturated",
                Message.nanos(c.saturatedNanos()),
                "share",
                share >= 0
                    ? Message.of(
                        "carrier-starvation.title.share",
                        "share",
                        Message.share(c.saturatedNanos(), duration))
                    : ""),
            Message.of(
                "carrier-starvation.explanation",
                "parallelism",
                parallelism,
                "how",
                Message.of(
                    monitors
                        ? "carrier-starvation.pinned-or-entering"
                        : "carrier-starvation.pinned"),
                "saturated",
                Message.nanos(c.saturatedNanos())),
            actions,
            evidence,
            k.jdk().virtualThreadsFinalIn() + "+",
            Facts.DOCS + ID,
            c.saturatedNanos(),
            classes,
            List.copyOf(culprits),
            List.of()));
  }
}
