package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.FrameOwnership;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Blocking in a class initialiser, or waiting for another thread's, pins the carrier. */
final class ClassInitRule implements Rule {

  static final String ID = "class-init-pinning";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    Map<String, List<Site>> byClass = new LinkedHashMap<>();
    for (Site site : a.pinned().sites()) {
      var c = Facts.culprit(site);
      if (c != null
          && (c.kind() == CulpritKind.CLASS_INIT || c.kind() == CulpritKind.CLASS_INIT_WAIT)) {
        byClass.computeIfAbsent(c.className(), x -> new ArrayList<>()).add(site);
      }
    }
    List<Finding> findings = new ArrayList<>();
    byClass.forEach(
        (className, sites) -> {
          long pinned = Facts.total(sites);
          long waiting =
              sites.stream()
                  .filter(s -> Facts.culprit(s).kind() == CulpritKind.CLASS_INIT_WAIT)
                  .mapToLong(Facts::eventsOf)
                  .sum();
          boolean jdkClass = FrameOwnership.isJdkPackage(className);
          // A library's class: its initialiser is its maintainers' to change, not the user's.
          boolean libraryClass =
              !jdkClass
                  && Facts.culprit(sites.get(0)).owner() == dev.vtscope.attribution.Owner.LIBRARY;
          int feature = a.feature();
          int waitsUnmountIn = k.jdk().classInitWaitUnmountsIn();
          // From JDK 26 a thread that waits for another's initialiser unmounts on the common paths:
          // the waits here go away with it, the initialiser's own blocking does not.
          Message upgrade =
              waiting > 0 && feature < waitsUnmountIn
                  ? Message.of(
                      "class-init-pinning.action.upgrade-jdk",
                      "unmountsIn",
                      waitsUnmountIn,
                      "waiting",
                      waiting,
                      "source",
                      k.jdk().classInitWaitUnmountsSource())
                  : waiting > 0
                      ? Message.of(
                          "class-init-pinning.action.other-path", "unmountsIn", waitsUnmountIn)
                      : Message.of("class-init-pinning.action.no-upgrade");
          var artifact = Facts.culprit(sites.get(0)).artifact();
          List<Message> actions =
              jdkClass
                  ? List.of(Message.of("class-init-pinning.action.jdk-class"))
                  : List.of(
                      Message.of(
                          "class-init-pinning.action.initialise-early",
                          "className",
                          className,
                          "simpleName",
                          simpleName(className)),
                      libraryClass
                          ? Message.of(
                              "class-init-pinning.action.library-class",
                              "owner",
                              artifact != null
                                  ? artifact.display()
                                  : Message.of("class-init-pinning.not-the-application"))
                          : Message.of("class-init-pinning.action.move-blocking"),
                      upgrade);
          findings.add(
              new Finding(
                  ID,
                  jdkClass
                      ? Severity.INFO
                      : libraryClass && Facts.events(sites) == 1
                          ? min(Facts.severity(a, k, sites), Severity.LOW)
                          : Facts.severity(a, k, sites),
                  Message.of("class-init-pinning.title", "className", className),
                  Message.of(
                      "class-init-pinning.explanation",
                      "unmountsIn",
                      k.jdk().classInitWaitUnmountsIn(),
                      "events",
                      Facts.events(sites),
                      "pinned",
                      Message.nanos(pinned),
                      "waiting",
                      waiting > 0
                          ? Message.of("class-init-pinning.explanation.waiting", "waiting", waiting)
                          : ""),
                  actions,
                  List.of(
                      Evidence.nanos("pinned time", pinned),
                      Evidence.text(
                          "share of pinned time", Facts.percent(pinned, a.pinned().totalNanos())),
                      Evidence.count("pinned events", Facts.events(sites), "events"),
                      Evidence.count("waiting for the initialiser", waiting, "events"),
                      Evidence.text("class", className)),
                  k.jdk().virtualThreadsFinalIn() + "+",
                  Facts.DOCS + ID,
                  pinned,
                  List.of(className),
                  List.of(className + ".<clinit>"),
                  List.of()));
        });
    return findings;
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
  }

  /** A library's class initialised once is warm-up: at most low. */
  private static Severity min(Severity a, Severity b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
