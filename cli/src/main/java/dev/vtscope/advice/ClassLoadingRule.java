package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
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
    List<Message> actions = new ArrayList<>();
    actions.add(Message.of("class-loading-pinning.action.load-early"));
    for (String loader : loaders) {
      actions.add(Message.of("class-loading-pinning.action.quicker-loader", "loader", loader));
    }
    actions.add(
        Message.of(
            "class-loading-pinning.action.no-upgrade",
            "reasonIn",
            k.jdk().pinnedReasonRecordedIn()));
    return List.of(
        new Finding(
            ID,
            Facts.severity(a, k, sites),
            Message.of("class-loading-pinning.title"),
            Message.of(
                "class-loading-pinning.explanation",
                "events",
                Facts.events(sites),
                "pinned",
                Message.nanos(pinned),
                "share",
                Message.share(pinned, a.pinned().totalNanos()),
                "longest",
                Message.nanos(Facts.maxNanos(sites)),
                "firstUses",
                firstUses.isEmpty()
                    ? ""
                    : Message.of(
                        "class-loading-pinning.explanation.first-uses",
                        "firstUses",
                        List.copyOf(firstUses))),
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
