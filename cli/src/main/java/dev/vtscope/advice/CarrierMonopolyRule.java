package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Virtual threads that keep their carrier busy without pinning: long stretches of CPU work or spin
 * loops, seen as runs of execution samples of one virtual thread. Nothing pins, so no pinned event
 * says it, yet every other virtual thread waits for a carrier meanwhile.
 */
final class CarrierMonopolyRule implements Rule {

  static final String ID = "carrier-monopoly";

  /** One finding for each of the worst culprits; the rest are in the report's sites. */
  private static final int MAX_FINDINGS = 3;

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    CarrierWork w = a.carrierWork();
    if (w == null || w.longRuns() == 0) {
      return List.of();
    }

    // Runs spent in file calls are file I/O's finding; runs loading classes are warm-up.
    Map<String, List<Site>> groups =
        Facts.byCulprit(
            w.runSites(),
            c -> c.kind() == CulpritKind.CPU_BOUND || c.kind() == CulpritKind.SPIN_WAIT);
    List<Finding> findings = new ArrayList<>();
    for (List<Site> sites : groups.values()) {
      if (findings.size() == MAX_FINDINGS) {
        break;
      }
      findings.add(finding(a, k, w, sites));
    }
    return findings;
  }

  private static Finding finding(Analysis a, Knowledge k, CarrierWork w, List<Site> sites) {
    Culprit culprit = Facts.culprit(sites.get(0));
    boolean spin = culprit.kind() == CulpritKind.SPIN_WAIT;
    long held = Facts.total(sites);
    long runs = Facts.events(sites);
    long longest = Facts.maxNanos(sites);
    int parallelism = Facts.parallelism(a);
    String variant = spin ? "spin" : "cpu";
    Message title =
        Message.of(
            "carrier-monopoly.title." + variant,
            "culprit",
            culprit.qualifiedMethod(),
            "runs",
            runs,
            "longRun",
            Message.nanos(CarrierWork.longRunNanos()),
            "longest",
            Message.nanos(longest));
    Message explanation =
        Message.of(
            "carrier-monopoly.explanation",
            "threads",
            parallelism > 0
                ? Message.of("carrier-monopoly.threads", "parallelism", parallelism)
                : Message.of("carrier-monopoly.threads.unknown"),
            "maxGap",
            Message.nanos(CarrierWork.maxGapNanos()),
            "held",
            Message.nanos(held),
            "spin",
            spin
                ? Message.of(
                    "carrier-monopoly.explanation.spin",
                    "method",
                    culprit.detail() != null
                        ? culprit.detail()
                        : Message.of("carrier-monopoly.spin-method"))
                : Message.of("carrier-monopoly.explanation.end"));
    String frame = Facts.culpritFrame(sites.get(0));
    List<Message> actions = new ArrayList<>();
    if (spin) {
      actions.add(Message.of("carrier-monopoly.action.replace-spin", "frame", frame));
    } else {
      actions.add(Message.of("carrier-monopoly.action.offload", "frame", frame));
      actions.add(Message.of("carrier-monopoly.action.if-looping"));
      actions.add(
          Message.of(
              "carrier-monopoly.action.no-parallelism",
              "cpus",
              a.cpus() > 0
                  ? Message.of("carrier-monopoly.cpus", "cpus", a.cpus())
                  : Message.of("carrier-monopoly.cpus.unknown")));
    }
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.count("long runs", runs, "runs"));
    evidence.add(Evidence.nanos("carrier time in them (at least)", held));
    evidence.add(Evidence.nanos("longest run (at least)", longest));
    evidence.add(Evidence.count("virtual threads", Facts.threads(sites), "threads"));
    evidence.add(Evidence.count("execution samples of virtual threads", w.samples(), "samples"));
    if (w.samplePeriod() != null) {
      evidence.add(Evidence.text("sampling period", w.samplePeriod()));
    }
    if (culprit.artifact() != null) {
      evidence.add(Evidence.text("artifact", culprit.artifact().display()));
    }
    return new Finding(
        ID,
        Facts.severity(a, k, sites),
        title,
        explanation,
        actions,
        evidence,
        k.jdk().virtualThreadsFinalIn() + "+",
        Facts.DOCS + ID,
        held,
        List.of(culprit.className()),
        List.of(culprit.qualifiedMethod()),
        List.of());
  }
}
