package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
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
    String where = culprit.qualifiedMethod();
    String title =
        where
            + (spin ? " spins on its carrier" : " keeps carriers busy with CPU work")
            + " without pinning: "
            + Facts.plural(runs, "run")
            + " of at least "
            + Facts.duration(CarrierWork.longRunNanos())
            + ", the longest "
            + Facts.duration(longest);
    String explanation =
        "A virtual thread that runs Java code without blocking keeps its carrier until it blocks or"
            + " ends: no pinned event is written, yet while "
            + (parallelism > 0 ? parallelism + " such threads run" : "as many such threads run")
            + " every other virtual thread waits for a carrier, however little it has to do. JFR"
            + " sampled the same virtual thread on a carrier again and again (samples at most "
            + Facts.duration(CarrierWork.maxGapNanos())
            + " apart) for "
            + Facts.duration(held)
            + " in total here"
            + (spin
                ? ", mostly in "
                    + (culprit.detail() != null ? culprit.detail() : "a spin-wait method")
                    + ": it was waiting by looping."
                : ".")
            + " The lengths are lower bounds: from a run's first sample to its last.";
    List<String> actions = new ArrayList<>();
    if (spin) {
      actions.add(
          "Replace the spin loop in "
              + Facts.culpritFrame(sites.get(0))
              + " with a blocking hand-off (a CountDownLatch, a CompletableFuture, a"
              + " BlockingQueue, or LockSupport.park/unpark): a virtual thread that parks gives its"
              + " carrier back, one that spins keeps it.");
    } else {
      actions.add(
          "Run the CPU-heavy part of "
              + Facts.culpritFrame(sites.get(0))
              + " on a pool of platform threads sized to the CPUs (Executors.newFixedThreadPool"
              + " or a ForkJoinPool) and have the virtual thread wait for the result"
              + " (Future.get unmounts it): carriers stay free for the virtual threads that only"
              + " wait.");
      actions.add(
          "If it waits for something by looping (a busy poll, Thread.onSpinWait, Thread.yield:"
              + " samples cannot tell a spin from work), replace the loop with a blocking"
              + " hand-off (a CountDownLatch, a CompletableFuture, a BlockingQueue): a virtual"
              + " thread that parks gives its carrier back.");
      actions.add(
          "A larger jdk.virtualThreadScheduler.parallelism does not help: the CPU work needs the"
              + " CPUs, and "
              + (a.cpus() > 0 ? "this machine has " + a.cpus() : "the machine has only so many")
              + ".");
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
        Facts.severity(a, k, held),
        title,
        explanation,
        actions,
        evidence,
        k.jdk().virtualThreadsFinalIn() + "+",
        Facts.DOCS + ID,
        held,
        List.of(culprit.className()),
        List.of());
  }
}
