package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JDK 21–23: a virtual thread that blocks inside {@code synchronized} pins its carrier. One finding
 * per culprit, with the fixes and the share of pinned time each removes.
 */
final class MonitorPinningRule implements Rule {

  static final String ID = "monitor-pinning";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    int feature = a.feature();
    int fixedIn = k.jdk().monitorsStopPinningIn();
    if (feature >= fixedIn || (feature > 0 && feature < k.jdk().virtualThreadsFinalIn())) {
      return List.of();
    }
    Map<String, List<Site>> groups =
        Facts.byCulprit(a.pinned().sites(), c -> Facts.isMonitorHold(c.kind()));
    long pinnedTotal = a.pinned().totalNanos();
    long monitorPinned = groups.values().stream().mapToLong(Facts::total).sum();
    List<Site> enters = a.monitorEnter() == null ? List.of() : a.monitorEnter().sites();
    List<Finding> findings = new ArrayList<>();
    for (List<Site> sites : groups.values()) {
      Culprit culprit = Facts.culprit(sites.get(0));
      List<Site> enterSites =
          enters.stream()
              .filter(
                  s ->
                      Facts.culprit(s) != null
                          && Facts.culprit(s).qualifiedMethod().equals(culprit.qualifiedMethod()))
              .toList();
      findings.add(
          finding(a, k, culprit, sites, enterSites, pinnedTotal, monitorPinned, feature, fixedIn));
    }
    return findings;
  }

  private static Finding finding(
      Analysis a,
      Knowledge k,
      Culprit culprit,
      List<Site> sites,
      List<Site> enterSites,
      long pinnedTotal,
      long monitorPinned,
      int feature,
      int fixedIn) {
    long pinned = Facts.total(sites);
    long entered = Facts.total(enterSites);
    long carrierNanos = pinned + entered;
    String siteShare = Facts.percent(pinned, pinnedTotal);
    Frame waitedAt = sites.get(0).attribution().waitedAt();
    String jdk = feature > 0 ? "JDK " + feature : "this JDK";

    List<String> actions = new ArrayList<>();
    String artifact = culprit.artifact() == null ? null : culprit.artifact().display();
    // Monitors held further down the same stack: the carrier stays pinned until every one is
    // released, so freeing this one alone removes nothing.
    List<Frame> outer = outerHolders(sites.get(0));
    boolean outerJdk = outer.stream().anyMatch(FrameOwnership::isJdk);
    if (!outer.isEmpty()) {
      actions.add(
          "This stack holds "
              + (outer.size() == 1 ? "another monitor" : outer.size() + " other monitors")
              + " further down ("
              + String.join(", ", outer.stream().map(Frame::qualifiedMethod).toList())
              + "): the carrier stays pinned until every one is released, so changing "
              + culprit.method()
              + " alone removes nothing."
              + (outerJdk
                  ? " The JDK's monitor is held while it runs the code passed to it: move "
                      + (waitedAt == null ? "the blocking call" : waitedAt.display())
                      + " out of what runs inside it (do the slow work first, then store the"
                      + " result), or use an API that does not hold a lock while it runs your code"
                      + " (an asynchronous cache, for a cache)."
                  : ""));
    }
    // The library whose code a user can change: the culprit's own, or for a JDK monitor the library
    // that called into the JDK.
    Frame calledFromFrame = sites.get(0).attribution().calledFrom();
    boolean viaJdk = culprit.owner() == Owner.JDK;
    Optional<Knowledge.Library> library =
        culprit.owner() == Owner.LIBRARY
            ? k.library(culprit.className())
            : viaJdk && calledFromFrame != null
                ? k.library(calledFromFrame.className())
                : Optional.empty();
    if (library.isPresent()) {
      actions.add(
          LibraryFix.action(
              library.get(),
              Facts.version(
                  viaJdk ? sites.get(0).attribution().calledFromArtifact() : culprit.artifact()),
              viaJdk ? calledFromFrame.qualifiedMethod() : culprit.qualifiedMethod(),
              " Removes this site's " + siteShare + " of the recorded pinned time."));
    }
    boolean unknownLibraryFix = library.isEmpty() && culprit.owner() == Owner.LIBRARY;
    String where =
        culprit.lineRange() != null
            ? " (lines " + culprit.lineRange().first() + "-" + culprit.lineRange().last() + ")"
            : "";
    String blocking =
        waitedAt == null ? "the blocking call" : "the blocking call in " + waitedAt.display();
    Frame calledFrom = sites.get(0).attribution().calledFrom();
    if (culprit.owner() == Owner.JDK) {
      // The JDK's own code cannot be changed: the fix is where the application or library called
      // in, and what it runs inside the JDK method.
      String caller = calledFrom == null ? "the code that calls it" : calledFrom.display();
      actions.add(
          "The monitor is the JDK's, held by "
              + culprit.qualifiedMethod()
              + where
              + " while it runs code passed to it. In "
              + caller
              + ", move "
              + blocking
              + " out of what it runs inside "
              + culprit.method()
              + " (do the slow work first, then store the result), or use an API that does not"
              + " hold a lock while it runs your code (an asynchronous cache, for a cache).");
    }
    String changeTheCode =
        (culprit.owner() == Owner.APPLICATION ? "Hold a" : "Where you can change the code: hold a")
            + " java.util.concurrent.locks.ReentrantLock instead of the monitor in "
            + culprit.qualifiedMethod()
            + where
            + ", or move "
            + blocking
            + " out of the critical section.";
    // A library's code is changed by its maintainers: with no fixed release known, the JDK upgrade
    // is what a user can do, and comes first.
    // A known library's code is its maintainers': its entry above says what a user can do.
    if (culprit.owner() == Owner.APPLICATION) {
      actions.add(changeTheCode);
    }
    actions.add(
        "Upgrade to JDK "
            + fixedIn
            + " or later (JEP 491: blocking in synchronized unmounts; "
            + k.jdk().monitorsStopPinningSource()
            + "): removes this site's "
            + siteShare
            + " and every monitor pin, "
            + Facts.percent(monitorPinned, pinnedTotal)
            + " of the recorded pinned time"
            + (a.monitorEnter() != null && a.monitorEnter().events() > 0
                ? ", and the carriers held while entering monitors"
                : "")
            + ".");
    // with monitors held further down, neither this library's code nor its release frees the
    // carrier
    if (unknownLibraryFix && outer.isEmpty()) {
      actions.add(changeTheCode);
      actions.add(
          "vtscope knows of no release of "
              + (culprit.artifact() != null
                  ? culprit.artifact().name()
                  : "the library that owns " + culprit.className())
              + " that stopped holding this monitor"
              + (Facts.version(culprit.artifact()) == null
                  ? ""
                  : " (this recording has " + Facts.version(culprit.artifact()) + ")")
              + "; a later one may have replaced synchronized with java.util.concurrent locks:"
              + " its change log says.");
    }

    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.nanos("pinned time", pinned));
    evidence.add(new Evidence("share of pinned time", siteShare, null, null));
    evidence.add(Evidence.count("pinned events", Facts.events(sites), "events"));
    evidence.add(Evidence.count("virtual threads", Facts.threads(sites), "threads"));
    evidence.add(Evidence.nanos("longest pin", Facts.maxNanos(sites)));
    if (!enterSites.isEmpty()) {
      evidence.add(Evidence.nanos("monitor enter time (carrier held)", entered));
    }
    if (artifact != null) {
      evidence.add(Evidence.text("artifact", artifact));
    }
    String explanation =
        "On "
            + jdk
            + " a virtual thread that blocks while holding a monitor cannot unmount, so its carrier"
            + " stays blocked for the whole wait. Here "
            + Facts.plural(Facts.events(sites), "pin")
            + " lasted "
            + Facts.duration(pinned)
            + " in total ("
            + siteShare
            + " of all pinned time), the longest "
            + Facts.duration(Facts.maxNanos(sites))
            + "."
            + (enterSites.isEmpty()
                ? ""
                : " Other virtual threads held carriers for "
                    + Facts.duration(entered)
                    + " more while they waited to enter this monitor.");
    return new Finding(
        ID,
        Facts.severity(a, k, carrierNanos),
        culprit.qualifiedMethod()
            + " pins carriers: it holds a monitor while the virtual thread blocks ("
            + Facts.what(culprit)
            + (culprit.owner() == Owner.JDK && calledFrom != null
                ? ", in the JDK, entered from " + calledFrom.qualifiedMethod()
                : "")
            + ")",
        explanation,
        actions,
        evidence,
        k.jdk().virtualThreadsFinalIn() + "-" + (fixedIn - 1),
        Facts.DOCS + ID,
        carrierNanos,
        List.of(culprit.className()),
        List.of());
  }

  /**
   * The frames below the culprit of a site's stack that hold monitors too and that another party
   * owns: the JDK's (which no library or application change frees), or the application's under a
   * library's culprit. Monitors of the culprit's own code (a library's nested synchronized methods)
   * are freed by the same fix and are not listed.
   */
  private static List<Frame> outerHolders(Site site) {
    Culprit culprit = site.attribution().culprit();
    List<Frame> frames = site.stack().frames();
    List<Owner> owners = site.attribution().owners();
    List<Frame> outer = new ArrayList<>();
    for (dev.vtscope.attribution.MonitorFrame m : site.attribution().otherMonitorFrames()) {
      int i = m.frameIndex();
      if (i <= culprit.frameIndex() || i >= frames.size() || i >= owners.size()) {
        continue;
      }
      Owner owner = owners.get(i);
      if ((owner == Owner.JDK && culprit.owner() != Owner.JDK)
          || (owner == Owner.APPLICATION && culprit.owner() == Owner.LIBRARY)) {
        outer.add(frames.get(i));
      }
    }
    return outer;
  }

  static boolean applies(CulpritKind kind) {
    return Facts.isMonitorHold(kind);
  }
}
