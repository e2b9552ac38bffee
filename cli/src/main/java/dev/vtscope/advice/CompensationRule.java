package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * JDK 21–23: {@code Object.wait()} in a virtual thread blocks its carrier, and the scheduler starts
 * another carrier to compensate, up to {@code maxPoolSize}; past it, virtual threads stall. This
 * can happen with no pinned event at all.
 */
final class CompensationRule implements Rule {

  static final String ID = "carrier-compensation";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    if (a.monitorWait() == null || a.monitorWait().events() == 0) {
      return List.of();
    }
    int started = a.scheduler().carriersStarted();
    int parallelism = a.scheduler().parallelism().value();
    int maxPool = a.scheduler().maxPoolSize().value();
    // With jdk.ThreadStart stacks, the starts that compensated for a wait say so themselves.
    dev.vtscope.analysis.CarrierWork work = a.carrierWork();
    long forWaits =
        work.startStacks()
            ? work.compensationSites().stream()
                .filter(CompensationRule::waits)
                .mapToLong(Facts::eventsOf)
                .sum()
            : -1;
    if (forWaits == 0
        || (forWaits < 0 && started >= 0 && parallelism > 0 && started <= parallelism)) {
      return List.of(); // waits, but the scheduler did not need to grow
    }
    long waited = a.monitorWait().durations().totalNanos();
    boolean nearMax =
        started > 0
            && maxPool > 0
            && started >= k.thresholds().compensationHighShareOfMaxPool() * maxPool;
    Severity severity = nearMax ? Severity.HIGH : Facts.severity(a, k, waited);
    // Waits for another thread's class initialiser are recorded as monitor waits too (JDK 21-23):
    // the wait this finding names is an Object.wait.
    List<Site> sites =
        a.monitorWait().sites().stream()
            .filter(
                s ->
                    Facts.culprit(s) == null
                        || Facts.culprit(s).kind()
                            != dev.vtscope.attribution.CulpritKind.CLASS_INIT_WAIT)
            .toList();
    Site top = sites.isEmpty() ? null : sites.get(0);
    String where =
        top == null || Facts.culprit(top) == null
            ? ""
            : " in " + top.attribution().culprit().qualifiedMethod();
    // Whose code waits decides the advice: the JDK's or a library's cannot be changed by the user,
    // and the frame that called into it can.
    dev.vtscope.attribution.Owner waitOwner =
        top == null || Facts.culprit(top) == null ? null : Facts.culprit(top).owner();
    boolean jdkWait = waitOwner == dev.vtscope.attribution.Owner.JDK;
    boolean libraryWait = waitOwner == dev.vtscope.attribution.Owner.LIBRARY;
    String caller =
        (jdkWait || libraryWait) && top.attribution().calledFrom() != null
            ? top.attribution().calledFrom().display()
            : null;
    if (jdkWait) {
      where =
          " in the JDK's "
              + top.attribution().culprit().qualifiedMethod()
              + (caller != null ? ", called from " + caller : "");
    }
    int fixedIn = k.jdk().monitorsStopPinningIn();
    String title =
        forWaits > 0
            ? "Object.wait()"
                + where
                + " made the scheduler start "
                + Facts.plural(forWaits, "extra carrier")
                + " to compensate, for a parallelism of "
                + parallelism
                + (nearMax ? ": at maxPoolSize " + maxPool + " virtual threads stall" : "")
            : started > 0
                ? "Object.wait()"
                    + where
                    + " made the scheduler start "
                    + started
                    + " carriers for a parallelism of "
                    + parallelism
                    + (nearMax ? ": at maxPoolSize " + maxPool + " virtual threads stall" : "")
                : "Object.wait()"
                    + where
                    + " blocks carriers; how many the scheduler added is unknown";
    List<Evidence> evidence = new ArrayList<>();
    if (started >= 0) {
      evidence.add(Evidence.count("carriers started", started, "carriers"));
    }
    if (forWaits > 0) {
      evidence.add(
          Evidence.count("carriers started to compensate for Object.wait()", forWaits, "carriers"));
    }
    evidence.add(Evidence.count("parallelism", parallelism, "carriers"));
    evidence.add(Evidence.count("maxPoolSize", maxPool, "carriers"));
    evidence.add(Evidence.count("monitor waits", a.monitorWait().events(), "events"));
    evidence.add(Evidence.nanos("time in Object.wait()", waited));
    evidence.add(Evidence.count("pinned events", a.pinned().events(), "events"));
    List<String> actions = new ArrayList<>();
    if (jdkWait) {
      actions.add(
          "The wait is in the JDK's own code, which you cannot change: in "
              + (caller != null ? caller : "the code that calls it")
              + ", use an API that does not wait in Object.wait() on a virtual thread (a"
              + " non-blocking or asynchronous one), or make that call from a platform thread.");
    } else if (libraryWait) {
      // The library's code is its maintainers' to change; what the user can do is upgrade the
      // JDK, or keep virtual threads from waiting inside the library at all.
      dev.vtscope.attribution.Culprit culprit = Facts.culprit(top);
      String library =
          culprit.artifact() != null
              ? culprit.artifact().display()
              : "the library that owns " + culprit.className();
      java.util.Optional<Knowledge.Library> known = k.library(culprit.className());
      known.ifPresent(
          lib ->
              actions.add(
                  LibraryFix.action(
                      lib, Facts.version(culprit.artifact()), culprit.qualifiedMethod(), "")));
      actions.add(
          "Upgrade to JDK "
              + fixedIn
              + " or later (JEP 491): Object.wait() in a virtual thread unmounts there.");
      actions.add(
          "The wait is inside "
              + library
              + ", in "
              + culprit.qualifiedMethod()
              + ". Until the "
              + (known.isPresent() && known.get().fixedIn() != null ? "upgrade" : "JDK upgrade")
              + ": "
              + (caller != null ? "in " + caller + ", " : "")
              + "let only as many virtual threads into that call as it can serve at once (e.g. a"
              + " java.util.concurrent.Semaphore with as many permits as the pool has objects):"
              + " waiting for a permit unmounts, so no carrier is held"
              + (known.isPresent()
                  ? "."
                  : "; or check whether a later release of it replaced wait()/notify() with"
                      + " java.util.concurrent (vtscope knows of none)."));
    } else {
      actions.add(
          "Replace wait()/notify()"
              + where
              + " with java.util.concurrent: a Semaphore for a pool of connections or permits, or"
              + " a ReentrantLock with a Condition; waiting on them unmounts.");
    }
    if (!libraryWait) {
      actions.add(
          "Upgrade to JDK "
              + fixedIn
              + " or later (JEP 491): Object.wait() in a virtual thread unmounts there.");
    }
    actions.add(
        "Raising jdk.virtualThreadScheduler.maxPoolSize only postpones the stall: every waiting"
            + " virtual thread still takes a platform thread.");
    if (started < 0) {
      actions.add(
          "Record jdk.ThreadStart (vtscope record does) to see how many carriers the scheduler"
              + " started.");
    }
    return List.of(
        new Finding(
            ID,
            severity,
            title,
            "On JDK "
                + k.jdk().virtualThreadsFinalIn()
                + "-"
                + (fixedIn - 1)
                + " a virtual thread in Object.wait() keeps its carrier, and the scheduler"
                + " compensates with a new carrier thread, up to maxPoolSize ("
                + maxPool
                + "). Here "
                + Facts.plural(a.monitorWait().events(), "wait")
                + " lasted "
                + Facts.duration(waited)
                + " in total"
                + (a.pinned().events() == 0
                    ? ", and not one pinned event was recorded: this stall is invisible to"
                        + " jdk.VirtualThreadPinned."
                    : "."),
            actions,
            evidence,
            k.jdk().virtualThreadsFinalIn() + "-" + (fixedIn - 1),
            Facts.DOCS + ID,
            waited,
            top == null || Facts.culprit(top) == null
                ? List.of()
                : List.of(top.attribution().culprit().className()),
            List.of("compensation")));
  }

  /** Whether a compensated start's stack waits in Object.wait. */
  private static boolean waits(Site site) {
    return site.stack().frames().stream()
        .anyMatch(f -> "java.lang.Object".equals(f.className()) && f.method().startsWith("wait"));
  }
}
