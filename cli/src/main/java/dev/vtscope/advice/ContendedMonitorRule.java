package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
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
              once ? Severity.INFO : Facts.severity(a, k, sites),
              Message.of("monitor-contention.title", "culprit", c.qualifiedMethod()),
              Message.of(
                  "monitor-contention.explanation",
                  "from",
                  k.jdk().virtualThreadsFinalIn(),
                  "to",
                  fixedIn - 1,
                  "events",
                  Facts.events(sites),
                  "monitor",
                  monitor == null
                      ? ""
                      : Message.of("monitor-contention.explanation.on", "monitor", monitor),
                  "held",
                  Message.nanos(held),
                  "longest",
                  Message.nanos(Facts.maxNanos(sites))),
              actions(c, sites, k, fixedIn),
              List.of(
                  Evidence.nanos("carrier time entering the monitor", held),
                  Evidence.count("monitor enters", Facts.events(sites), "events"),
                  Evidence.nanos("longest", Facts.maxNanos(sites))),
              k.jdk().virtualThreadsFinalIn() + "-" + (fixedIn - 1),
              Facts.DOCS + ID,
              held,
              List.of(c.className()),
              List.of(c.qualifiedMethod()),
              List.of()));
    }
    return findings;
  }

  /**
   * The JDK's monitor: call it less often. A library's: its known fix, or the release to look for;
   * never an edit of its code. The application's: a shorter critical section or a lock.
   */
  private static List<Message> actions(Culprit c, List<Site> sites, Knowledge k, int fixedIn) {
    List<Message> actions = new ArrayList<>();
    Frame from = calledFrom(sites);
    Object calledFrom =
        from == null
            ? ""
            : Message.of("monitor-contention.called-from", "calledFrom", from.qualifiedMethod());
    if (c.owner() == Owner.JDK && Facts.events(sites) == 1) {
      actions.add(
          Message.of(
              "monitor-contention.action.jdk-once",
              "culprit",
              c.qualifiedMethod(),
              "calledFrom",
              calledFrom));
    } else if (c.owner() == Owner.JDK) {
      actions.add(
          Message.of(
              "monitor-contention.action.jdk",
              "culprit",
              c.qualifiedMethod(),
              "calledFrom",
              calledFrom));
    } else if (c.owner() == Owner.LIBRARY) {
      java.util.Optional<Knowledge.Library> lib = k.library(c.className());
      if (lib.isPresent()) {
        actions.add(
            LibraryFix.action(lib.get(), Facts.version(c.artifact()), c.qualifiedMethod(), ""));
      } else {
        actions.add(
            Message.of(
                "monitor-contention.action.library",
                "owner",
                c.artifact() != null
                    ? Message.of(
                        "monitor-contention.owner.artifact", "artifact", c.artifact().display())
                    : Message.of("monitor-contention.owner.library"),
                "culprit",
                c.qualifiedMethod(),
                "where",
                from == null
                    ? Message.of("monitor-contention.call-it")
                    : Message.of("monitor-contention.call-it.in", "calledFrom", from)));
      }
    } else {
      actions.add(
          Message.of("monitor-contention.action.application", "culprit", c.qualifiedMethod()));
    }
    actions.add(Message.of("monitor-contention.action.upgrade-jdk", "fixedIn", fixedIn));
    return actions;
  }

  private static Frame calledFrom(List<Site> sites) {
    return sites.get(0).attribution() == null ? null : sites.get(0).attribution().calledFrom();
  }
}
