package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.List;

/** Pins whose holder vtscope could not locate: say what would locate it. */
final class UnexplainedPinningRule implements Rule {

  static final String ID = "unexplained-pinning";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    List<Finding> findings = new ArrayList<>();
    boolean monitorsPin = a.feature() < k.jdk().monitorsStopPinningIn();
    for (List<Site> sites :
        Facts.byCulprit(a.pinned().sites(), c -> c.kind() == CulpritKind.UNKNOWN).values()) {
      Culprit c = Facts.culprit(sites.get(0));
      long pinned = Facts.total(sites);
      long truncated = sites.stream().mapToLong(Site::truncatedStacks).sum();
      String reason = sites.get(0).reason();
      List<Message> actions = new ArrayList<>();
      if (truncated > 0) {
        actions.add(Message.of("unexplained-pinning.action.deeper-stacks", "truncated", truncated));
      }
      // Only when some frames' class files were not found: --classpath is what lets vtscope read
      // them (the attribution says so in its detail).
      boolean unchecked = c.detail() != null && c.detail().contains("--classpath");
      if (monitorsPin && unchecked) {
        boolean given =
            c.detail().contains(dev.vtscope.attribution.Attributor.NOT_IN_CLASS_PATH_GIVEN);
        actions.add(
            Message.of(
                given
                    ? "unexplained-pinning.action.add-to-classpath"
                    : "unexplained-pinning.action.pass-classpath",
                "className",
                c.className(),
                "culprit",
                c.qualifiedMethod(),
                "fixedIn",
                k.jdk().monitorsStopPinningIn()));
      }
      if (c.detail() != null
          && c.detail().contains(dev.vtscope.attribution.Attributor.JDK_MISSING)) {
        actions.add(
            Message.of(
                "unexplained-pinning.action.install-jdk",
                "release",
                a.jvm() != null && a.jvm().javaVersion() != null
                    ? Message.of("unexplained-pinning.release", "version", a.jvm().javaVersion())
                    : ""));
      }
      if (truncated < Facts.events(sites)) {
        actions.add(
            Message.of("unexplained-pinning.action.read-stack", "culprit", c.qualifiedMethod()));
      }
      findings.add(
          new Finding(
              ID,
              Facts.severity(a, k, sites),
              Message.of(
                  "unexplained-pinning.title",
                  "culprit",
                  c.qualifiedMethod(),
                  "reason",
                  reason == null
                      ? ""
                      : Message.of("unexplained-pinning.title.reason", "reason", reason)),
              Message.of(
                  "unexplained-pinning.explanation",
                  "events",
                  Facts.events(sites),
                  "pinned",
                  Message.nanos(pinned),
                  "share",
                  Message.share(pinned, a.pinned().totalNanos())),
              actions,
              List.of(
                  Evidence.nanos("pinned time", pinned),
                  Evidence.count("pinned events", Facts.events(sites), "events"),
                  Evidence.count("truncated stacks", truncated, "events")),
              k.jdk().virtualThreadsFinalIn() + "+",
              Facts.DOCS + ID,
              pinned,
              List.of(c.className()),
              List.of(c.qualifiedMethod()),
              List.of()));
    }
    return findings;
  }
}
