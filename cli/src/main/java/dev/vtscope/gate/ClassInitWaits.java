package dev.vtscope.gate;

import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.recording.Frame;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Matches a wait for another thread's class initialiser across the ways JDKs record it, so that a
 * JDK upgrade does not read as one culprit fixed and another new. JDK 21–23 record it as a monitor
 * wait on the class's initialisation lock, an {@code int[]}, that names only the frame that needed
 * the class; JDK 24 and later as a pin whose reason names the class. What both keep is the frame
 * that waited: a fixed class-initialisation wait and a new one that waited in the same method are
 * one culprit.
 */
final class ClassInitWaits {

  private static final String KIND = CulpritKind.CLASS_INIT_WAIT.name();

  private ClassInitWaits() {}

  /**
   * {@code changes} with each fixed class-initialisation wait that a new one waited in the same
   * method as merged with it, in the after recording's section.
   */
  static List<SiteChange> match(
      List<SiteChange> changes,
      Map<String, List<Site>> before,
      Map<String, List<Site>> after,
      double tolerance) {
    List<SiteChange> result = new ArrayList<>(changes);
    for (SiteChange fixed : changes) {
      if (!isWait(fixed, SiteChange.Status.FIXED)) {
        continue;
      }
      Set<String> waitedIn = waiters(before.get(fixed.section()), fixed.key());
      for (SiteChange added : result) {
        if (isWait(added, SiteChange.Status.NEW)
            && !waitedIn.isEmpty()
            && !java.util.Collections.disjoint(
                waitedIn, waiters(after.get(added.section()), added.key()))) {
          result.remove(added);
          result.remove(fixed);
          result.add(merge(fixed, added, tolerance));
          break;
        }
      }
    }
    return result;
  }

  private static boolean isWait(SiteChange c, SiteChange.Status status) {
    return c.status() == status && KIND.equals(c.kind());
  }

  /** One culprit: its times before and after, named by whichever side names the class. */
  private static SiteChange merge(SiteChange fixed, SiteChange added, double tolerance) {
    SiteChange named = added.culprit().endsWith(".<clinit>") ? added : fixed;
    return new SiteChange(
        added.section(),
        added.key(),
        named.culprit(),
        KIND,
        fixed.section(),
        Differ.status(
            new long[] {fixed.beforeEvents(), fixed.beforeNanos(), 0},
            new long[] {added.afterEvents(), added.afterNanos(), 0},
            Differ.Thresholds.NONE,
            tolerance),
        fixed.warmUp() || added.warmUp(),
        added.allowedBy() != null ? added.allowedBy() : fixed.allowedBy(),
        null,
        fixed.beforeEvents(),
        fixed.beforeNanos(),
        added.afterEvents(),
        added.afterNanos());
  }

  /** The methods the class-initialisation waits of {@code key} waited in. */
  private static Set<String> waiters(List<Site> sites, String key) {
    Set<String> methods = new HashSet<>();
    for (Site site : sites) {
      if (site.attribution() != null && Differ.key(site).equals(key)) {
        Frame frame =
            site.attribution().waitedAt() != null
                ? site.attribution().waitedAt()
                : site.stack().frames().isEmpty() ? null : site.stack().frames().get(0);
        if (frame != null) {
          methods.add(Frame.stableClassName(frame.className()) + "." + frame.method());
        }
      }
    }
    return methods;
  }
}
