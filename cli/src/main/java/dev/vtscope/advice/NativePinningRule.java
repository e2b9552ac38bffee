package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.List;

/** Blocking under a native method or a foreign-function call pins on every JDK. */
final class NativePinningRule implements Rule {

  static final String ID = "native-pinning";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    List<Finding> findings = new ArrayList<>();
    for (List<Site> sites :
        Facts.byCulprit(
                a.pinned().sites(),
                c ->
                    c.kind() == CulpritKind.NATIVE_METHOD
                        || c.kind() == CulpritKind.FOREIGN_FUNCTION)
            .values()) {
      Culprit c = Facts.culprit(sites.get(0));
      long pinned = Facts.total(sites);
      boolean foreign = c.kind() == CulpritKind.FOREIGN_FUNCTION;
      String share = Facts.percent(pinned, a.pinned().totalNanos());
      String variant = foreign ? "foreign" : "native";
      findings.add(
          new Finding(
              ID,
              Facts.severity(a, k, sites),
              Message.of("native-pinning.title." + variant, "culprit", c.qualifiedMethod()),
              Message.of(
                  "native-pinning.explanation",
                  "foreign",
                  foreign ? Message.of("native-pinning.explanation.foreign") : "",
                  "events",
                  Facts.events(sites),
                  "pinned",
                  Message.nanos(pinned),
                  "share",
                  Message.share(pinned, a.pinned().totalNanos()),
                  "longest",
                  Message.nanos(Facts.maxNanos(sites))),
              List.of(
                  Message.of("native-pinning.action.move-blocking." + variant),
                  Message.of("native-pinning.action.platform-threads"),
                  Message.of("native-pinning.action.no-upgrade")),
              List.of(
                  Evidence.nanos("pinned time", pinned),
                  Evidence.text("share of pinned time", share),
                  Evidence.count("pinned events", Facts.events(sites), "events"),
                  Evidence.nanos("longest pin", Facts.maxNanos(sites))),
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
