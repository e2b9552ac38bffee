package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
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
    Message.Share siteShare = Message.share(pinned, pinnedTotal);
    Frame waitedAt = sites.get(0).attribution().waitedAt();
    Object jdk =
        feature > 0 ? Message.of("jdk.release", "feature", feature) : Message.of("jdk.this");

    List<Message> actions = new ArrayList<>();
    String artifact = culprit.artifact() == null ? null : culprit.artifact().display();
    Message blocking =
        waitedAt == null
            ? Message.of("blocking-call")
            : Message.of("blocking-call.in", "waitedAt", waitedAt);
    // Monitors held further down the same stack: the carrier stays pinned until every one is
    // released, so freeing this one alone removes nothing.
    List<Frame> outer = outerHolders(sites.get(0));
    boolean outerJdk = outer.stream().anyMatch(FrameOwnership::isJdk);
    if (!outer.isEmpty()) {
      actions.add(
          Message.of(
              "monitor-pinning.action.outer-holders",
              "holders",
              outer.size() == 1
                  ? Message.of("monitor-pinning.another-monitor")
                  : Message.of("monitor-pinning.other-monitors", "count", outer.size()),
              "frames",
              outer.stream().map(Frame::qualifiedMethod).toList(),
              "method",
              culprit.method(),
              "jdk",
              outerJdk
                  ? Message.of(
                      "monitor-pinning.action.outer-holders.jdk",
                      "blocking",
                      waitedAt == null ? Message.of("blocking-call") : waitedAt,
                      "cache",
                      outer.stream()
                          .filter(FrameOwnership::isJdk)
                          .findFirst()
                          .map(f -> cacheHint(f.className()))
                          .orElse(""))
                  : ""));
    }
    // Monitors taken inside the culprit's (a JDK reader that synchronizes on the lock it was
    // given): released with it, but the carrier stays pinned while the code under them blocks.
    List<Frame> inner = innerHolders(sites.get(0));
    if (!inner.isEmpty()) {
      actions.add(
          Message.of(
              "monitor-pinning.action.inner-holders",
              "method",
              culprit.qualifiedMethod(),
              "holders",
              inner.size() == 1
                  ? Message.of("monitor-pinning.another-monitor")
                  : Message.of("monitor-pinning.other-monitors", "count", inner.size()),
              "frames",
              inner.stream().map(Frame::qualifiedMethod).toList(),
              "blocking",
              blocking,
              "them",
              Message.of(
                  inner.size() == 1 ? "monitor-pinning.inner.it" : "monitor-pinning.inner.them")));
    }
    // The library whose code a user can change: the culprit's own, or for a JDK monitor the library
    // that called into the JDK.
    Frame calledFrom = sites.get(0).attribution().calledFrom();
    boolean viaJdk = culprit.owner() == Owner.JDK;
    Optional<Knowledge.Library> library =
        culprit.owner() == Owner.LIBRARY
            ? k.library(culprit.className())
            : viaJdk && calledFrom != null ? k.library(calledFrom.className()) : Optional.empty();
    if (library.isPresent()) {
      actions.add(
          LibraryFix.action(
              library.get(),
              Facts.version(
                  viaJdk ? sites.get(0).attribution().calledFromArtifact() : culprit.artifact()),
              viaJdk ? calledFrom.qualifiedMethod() : culprit.qualifiedMethod(),
              Message.of("library.gain", "share", siteShare)));
    }
    boolean unknownLibraryFix = library.isEmpty() && culprit.owner() == Owner.LIBRARY;
    String where =
        culprit.lineRange() != null
            ? " (lines " + culprit.lineRange().first() + "-" + culprit.lineRange().last() + ")"
            : "";
    if (culprit.owner() == Owner.JDK) {
      // The JDK's own code cannot be changed: the fix is where the application or library called
      // in: what it runs inside the JDK method (a map's compute runs the function passed to it),
      // or, when the JDK blocks under its monitor by itself (a stream's write), the call itself.
      actions.add(
          Message.of(
              runsCodePassedIn(sites.get(0), culprit)
                  ? "monitor-pinning.action.jdk-monitor"
                  : "monitor-pinning.action.jdk-monitor.own-blocking",
              "culprit",
              culprit.qualifiedMethod(),
              "lines",
              where,
              "caller",
              calledFrom == null ? Message.of("caller.unknown") : calledFrom,
              "blocking",
              blocking,
              "method",
              culprit.method(),
              "cache",
              cacheHint(culprit.className())));
    }
    Message changeTheCode =
        Message.of(
            culprit.owner() == Owner.APPLICATION
                ? "monitor-pinning.action.reentrant-lock"
                : "monitor-pinning.action.reentrant-lock.where-you-can",
            "culprit",
            culprit.qualifiedMethod(),
            "lines",
            where,
            "blocking",
            blocking);
    // A known library's code is its maintainers': its entry above says what a user can do.
    if (culprit.owner() == Owner.APPLICATION) {
      actions.add(changeTheCode);
    }
    actions.add(
        Message.of(
            "monitor-pinning.action.upgrade-jdk",
            "fixedIn",
            fixedIn,
            "source",
            k.jdk().monitorsStopPinningSource(),
            "share",
            siteShare,
            "monitorShare",
            Message.share(monitorPinned, pinnedTotal),
            "enters",
            a.monitorEnter() != null && a.monitorEnter().events() > 0
                ? Message.of("monitor-pinning.action.upgrade-jdk.enters")
                : ""));
    // with monitors held further down, neither this library's code nor its release frees the
    // carrier
    if (unknownLibraryFix && outer.isEmpty()) {
      actions.add(changeTheCode);
      String version = Facts.version(culprit.artifact());
      Object name =
          culprit.artifact() != null
              ? culprit.artifact().name()
              : Message.of("library.owning", "className", culprit.className());
      actions.add(
          Message.of(
              "monitor-pinning.action.unknown-library",
              "library",
              name,
              "version",
              version == null ? "" : Message.of("library.version-here", "version", version)));
      // what a user can do today without changing the library or the JDK
      actions.add(
          Message.of("monitor-pinning.action.unknown-library.platform-threads", "library", name));
    }

    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.nanos("pinned time", pinned));
    evidence.add(
        new Evidence("share of pinned time", Facts.percent(pinned, pinnedTotal), null, null));
    evidence.add(Evidence.count("pinned events", Facts.events(sites), "events"));
    evidence.add(Evidence.count("virtual threads", Facts.threads(sites), "threads"));
    evidence.add(Evidence.nanos("longest pin", Facts.maxNanos(sites)));
    if (!enterSites.isEmpty()) {
      evidence.add(Evidence.nanos("monitor enter time (carrier held)", entered));
    }
    if (artifact != null) {
      evidence.add(Evidence.text("artifact", artifact));
    }
    Message explanation =
        Message.of(
            "monitor-pinning.explanation",
            "jdk",
            jdk,
            "events",
            Facts.events(sites),
            "pinned",
            Message.nanos(pinned),
            "share",
            siteShare,
            "longest",
            Message.nanos(Facts.maxNanos(sites)),
            "enters",
            enterSites.isEmpty()
                ? ""
                : Message.of(
                    "monitor-pinning.explanation.enters", "entered", Message.nanos(entered)));
    return new Finding(
        ID,
        Facts.severity(
            a, k, java.util.stream.Stream.concat(sites.stream(), enterSites.stream()).toList()),
        Message.of(
            "monitor-pinning.title",
            "culprit",
            culprit.qualifiedMethod(),
            "what",
            Facts.what(culprit),
            "entered",
            culprit.owner() == Owner.JDK && calledFrom != null
                ? Message.of(
                    "monitor-pinning.title.entered-from",
                    "calledFrom",
                    calledFrom.qualifiedMethod())
                : ""),
        explanation,
        actions,
        evidence,
        k.jdk().virtualThreadsFinalIn() + "-" + (fixedIn - 1),
        Facts.DOCS + ID,
        carrierNanos,
        List.of(culprit.className()),
        List.of(culprit.qualifiedMethod()),
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

  /**
   * The frames above the culprit of a site's stack that hold monitors too and that another party
   * owns: taken inside the culprit's monitor, so the culprit's code decides whether they are. A
   * culprit's own nested monitors are freed by the same fix and are not listed.
   */
  private static List<Frame> innerHolders(Site site) {
    Culprit culprit = site.attribution().culprit();
    List<Frame> frames = site.stack().frames();
    List<Owner> owners = site.attribution().owners();
    List<Frame> inner = new ArrayList<>();
    for (dev.vtscope.attribution.MonitorFrame m : site.attribution().otherMonitorFrames()) {
      int i = m.frameIndex();
      if (i >= 0
          && i < culprit.frameIndex()
          && i < owners.size()
          && owners.get(i) != culprit.owner()) {
        inner.add(frames.get(i));
      }
    }
    return inner;
  }

  static boolean applies(CulpritKind kind) {
    return Facts.isMonitorHold(kind);
  }

  /**
   * Whether the JDK method that holds the monitor runs code it was given (a map's {@code compute}
   * runs the caller's function): a frame nearer the top than the holder's is not the JDK's. When
   * every one is, the JDK blocks under its monitor by itself (a stream's write to a pipe).
   */
  private static boolean runsCodePassedIn(Site site, Culprit culprit) {
    List<Owner> owners = site.attribution().owners();
    int holder = Math.min(culprit.frameIndex(), owners.size());
    for (int i = 0; i < holder; i++) {
      if (owners.get(i) != Owner.JDK) {
        return true;
      }
    }
    return holder < 0;
  }

  /** For a map's monitor, the API that runs the caller's code without it; nothing otherwise. */
  private static Object cacheHint(String className) {
    return className.endsWith("Map") ? Message.of("monitor-pinning.cache-hint") : "";
  }
}
