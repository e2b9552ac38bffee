package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
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
          String upgrade =
              waiting > 0 && feature < waitsUnmountIn
                  ? "Upgrade to JDK "
                      + waitsUnmountIn
                      + " or later for the "
                      + Facts.plural(waiting, "pin")
                      + " that waited for the initialiser: virtual threads waiting for another"
                      + " thread's class initialisation unmount there on the common paths (a"
                      + " static call, new, a static field; "
                      + k.jdk().classInitWaitUnmountsSource()
                      + "). The thread that runs the initialiser still pins while it blocks."
                  : waiting > 0
                      ? "These waits are on a path that JDK "
                          + waitsUnmountIn
                          + " and later do not unmount (only a static call, new and a static field"
                          + " do): initialise the class before virtual threads need it."
                      : "A JDK upgrade does not help: the thread that runs a class initialiser"
                          + " pins while it blocks, on every release.";
          List<String> actions =
              jdkClass
                  ? List.of(
                      "This is the JDK initialising one of its own classes on first use, once per"
                          + " JVM: nothing to change unless it lasts long. Running the same code"
                          + " path once at startup moves it off the virtual threads.")
                  : List.of(
                      "Initialise "
                          + className
                          + " before virtual threads need it: at startup, on the main thread"
                          + " (MethodHandles.lookup().ensureInitialized("
                          + simpleName(className)
                          + ".class), or Class.forName(\""
                          + className
                          + "\", true, loader)).",
                      libraryClass
                          ? "It is a library's class ("
                              + (Facts.culprit(sites.get(0)).artifact() != null
                                  ? Facts.culprit(sites.get(0)).artifact().display()
                                  : "not the application's")
                              + "): its initialiser is not yours to change; initialising it early"
                              + " is what you can do."
                          : "Or move the blocking work (I/O, sleeps, remote calls) out of its"
                              + " static initialiser into a lazily called method.",
                      upgrade);
          findings.add(
              new Finding(
                  ID,
                  jdkClass
                      ? Severity.INFO
                      : libraryClass && Facts.events(sites) == 1
                          ? min(Facts.severity(a, k, pinned), Severity.LOW)
                          : Facts.severity(a, k, pinned),
                  "Initialising "
                      + className
                      + " pins carriers: its static initialiser blocks while virtual threads race"
                      + " for it",
                  "A virtual thread that runs a class initialiser cannot unmount, on any JDK"
                      + " release; one that waits for another thread to finish it cannot either,"
                      + " before JDK "
                      + k.jdk().classInitWaitUnmountsIn()
                      + " (on the common paths). Here "
                      + Facts.plural(Facts.events(sites), "pin")
                      + " lasted "
                      + Facts.duration(pinned)
                      + " in total"
                      + (waiting > 0 ? ", " + waiting + " of them waiting for the initialiser" : "")
                      + ".",
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
