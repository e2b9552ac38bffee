package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.ClassLoading;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.recording.Frame;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The JVM loading classes for virtual threads: one finding for all of it, since every first use of
 * a class is its own site, and what to do is the same for all of them.
 */
final class ClassLoadingRule implements Rule {

  static final String ID = "class-loading-pinning";
  private static final int SHOWN = 3;

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    List<Site> sites =
        a.pinned().sites().stream()
            .filter(s -> Facts.culprit(s) != null)
            .filter(s -> Facts.culprit(s).kind() == CulpritKind.CLASS_LOADING)
            .toList();
    if (sites.isEmpty()) {
      return List.of();
    }
    long pinned = Facts.total(sites);
    Set<String> firstUses = new LinkedHashSet<>();
    Set<String> loaders = new LinkedHashSet<>();
    for (Site site : sites) {
      int index = Facts.culprit(site).frameIndex();
      Frame user = ClassLoading.firstUse(site.stack().frames(), index);
      if (user != null && firstUses.size() < SHOWN) {
        firstUses.add(user.qualifiedMethod());
      }
      String loader = ClassLoading.customLoader(site.stack().frames(), index);
      if (loader != null) {
        loaders.add(loader);
      }
    }
    List<String> actions = new ArrayList<>();
    actions.add(
        "Load these classes before virtual threads need them: run the code paths once at startup"
            + " (a warm-up call), or Class.forName(...) them on the main thread.");
    for (String loader : loaders) {
      actions.add(
          "Make "
              + loader
              + " quicker to answer: the JVM waited in it while holding the carrier. Keep I/O and"
              + " locks out of its loadClass, and if it is not parallel capable"
              + " (ClassLoader.registerAsParallelCapable()), loads of different classes queue on"
              + " one lock.");
    }
    actions.add(
        "A JDK upgrade does not help: the JVM's class loading call pins on every release (JDK "
            + k.jdk().pinnedReasonRecordedIn()
            + "+ names it in the pinned reason).");
    return List.of(
        new Finding(
            ID,
            Facts.severity(a, k, pinned),
            "Class loading pins carriers: the JVM loads classes on first use while virtual threads"
                + " wait",
            "When code first uses a class, the JVM calls the class loader from inside the VM; a"
                + " virtual thread cannot unmount in that call, so waiting for the loader's lock,"
                + " or for the loader itself, holds the carrier. Here "
                + Facts.plural(Facts.events(sites), "pin")
                + " lasted "
                + Facts.duration(pinned)
                + " in total ("
                + Facts.percent(pinned, a.pinned().totalNanos())
                + " of all pinned time), the longest "
                + Facts.duration(Facts.maxNanos(sites))
                + (firstUses.isEmpty() ? "" : "; first uses in " + String.join(", ", firstUses))
                + ".",
            actions,
            List.of(
                Evidence.nanos("pinned time", pinned),
                Evidence.count("pinned events", Facts.events(sites), "events"),
                Evidence.count("sites", sites.size(), "sites")),
            k.jdk().virtualThreadsFinalIn() + "+",
            Facts.DOCS + ID,
            pinned,
            List.copyOf(loaders),
            List.of()));
  }
}
