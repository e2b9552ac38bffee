package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * JDK 21–23: a virtual thread blocked entering a monitor holds its carrier, and no pinned event
 * says so. Monitors whose holder pinned are covered by {@link MonitorPinningRule}; this covers the
 * others.
 */
final class ContendedMonitorRule implements Rule {

  static final String ID = "monitor-contention";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    if (a.monitorEnter() == null || a.monitorEnter().events() == 0) {
      return List.of();
    }
    Set<String> pinningMethods =
        a.pinned().sites().stream()
            .map(Facts::culprit)
            .filter(c -> c != null && Facts.isMonitorHold(c.kind()))
            .map(Culprit::qualifiedMethod)
            .collect(Collectors.toSet());
    List<Finding> findings = new ArrayList<>();
    for (List<Site> sites :
        Facts.byCulprit(
                a.monitorEnter().sites(), c -> !pinningMethods.contains(c.qualifiedMethod()))
            .values()) {
      Culprit c = Facts.culprit(sites.get(0));
      long held = Facts.total(sites);
      String monitor = sites.get(0).monitorClass();
      int fixedIn = k.jdk().monitorsStopPinningIn();
      // Once, in the JDK's own code (a cache it fills on first use, a class loader's lock): warm-up
      // that comes and goes, worth a line, not a fix.
      boolean once = Facts.events(sites) == 1 && c.owner() == Owner.JDK;
      findings.add(
          new Finding(
              ID,
              once ? Severity.INFO : Facts.severity(a, k, held),
              "Virtual threads held carriers while waiting to enter a monitor in "
                  + c.qualifiedMethod(),
              "On JDK "
                  + k.jdk().virtualThreadsFinalIn()
                  + "-"
                  + (fixedIn - 1)
                  + " a virtual thread blocked entering a contended monitor keeps its carrier; no"
                  + " pinned event is written for it. Here "
                  + Facts.plural(Facts.events(sites), "monitor enter")
                  + (monitor == null ? "" : " on " + monitor)
                  + " held carriers for "
                  + Facts.duration(held)
                  + " in total, the longest "
                  + Facts.duration(Facts.maxNanos(sites))
                  + ".",
              actions(c, sites, k, fixedIn),
              List.of(
                  Evidence.nanos("carrier time entering the monitor", held),
                  Evidence.count("monitor enters", Facts.events(sites), "events"),
                  Evidence.nanos("longest", Facts.maxNanos(sites))),
              k.jdk().virtualThreadsFinalIn() + "-" + (fixedIn - 1),
              Facts.DOCS + ID,
              held,
              List.of(c.className()),
              List.of()));
    }
    return findings;
  }

  /**
   * The JDK's monitor: call it less often. A library's: its known fix, or the release to look for;
   * never an edit of its code. The application's: a shorter critical section or a lock.
   */
  private static List<String> actions(Culprit c, List<Site> sites, Knowledge k, int fixedIn) {
    List<String> actions = new ArrayList<>();
    Frame from = calledFrom(sites);
    if (c.owner() == Owner.JDK && Facts.events(sites) == 1) {
      actions.add(
          "It happened once, in the JDK's own code ("
              + c.qualifiedMethod()
              + (from == null ? "" : ", called from " + from.qualifiedMethod())
              + "): warm-up on first use, nothing to change unless it recurs.");
    } else if (c.owner() == Owner.JDK) {
      actions.add(
          "The monitor is the JDK's own ("
              + c.qualifiedMethod()
              + (from == null ? "" : ", called from " + from.qualifiedMethod())
              + "): call it less often from virtual threads, e.g. keep its result instead of"
              + " asking again.");
    } else if (c.owner() == Owner.LIBRARY) {
      java.util.Optional<Knowledge.Library> lib = k.library(c.className());
      if (lib.isPresent()) {
        actions.add(
            LibraryFix.action(lib.get(), Facts.version(c.artifact()), c.qualifiedMethod(), ""));
      } else {
        actions.add(
            "The monitor is "
                + (c.artifact() != null ? c.artifact().display() + "'s" : "a library's")
                + " ("
                + c.qualifiedMethod()
                + "): "
                + (from == null ? "call it" : "in " + from.display() + ", call it")
                + " from fewer virtual threads at once (a java.util.concurrent.Semaphore around"
                + " the call: waiting for a permit unmounts), or look for a release of it that"
                + " replaced synchronized with java.util.concurrent locks.");
      }
    } else {
      actions.add(
          "Shorten the critical section in "
              + c.qualifiedMethod()
              + ", or guard it with a java.util.concurrent.locks.ReentrantLock: waiting for a"
              + " ReentrantLock unmounts.");
    }
    actions.add(
        "Upgrade to JDK "
            + fixedIn
            + " or later (JEP 491): waiting to enter a monitor unmounts there.");
    return actions;
  }

  private static Frame calledFrom(List<Site> sites) {
    return sites.get(0).attribution() == null ? null : sites.get(0).attribution().calledFrom();
  }
}
