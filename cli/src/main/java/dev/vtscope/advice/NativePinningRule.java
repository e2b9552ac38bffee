package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
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
      findings.add(
          new Finding(
              ID,
              Facts.severity(a, k, pinned),
              c.qualifiedMethod()
                  + " pins carriers: the virtual thread blocks under a "
                  + (foreign ? "foreign-function call" : "native method"),
              "A virtual thread cannot unmount while a native frame is on its stack"
                  + (foreign ? " (a downcall, or an upcall back into Java)" : "")
                  + ", on every JDK release. Here "
                  + Facts.plural(Facts.events(sites), "pin")
                  + " lasted "
                  + Facts.duration(pinned)
                  + " in total ("
                  + share
                  + " of all pinned time), the longest "
                  + Facts.duration(Facts.maxNanos(sites))
                  + ".",
              List.of(
                  "Move the blocking out of the "
                      + (foreign ? "upcall or downcall" : "native call and its callbacks")
                      + ": collect what the callback needs, return, and block afterwards in Java.",
                  "Or run this work on platform threads (a small fixed pool) and let virtual"
                      + " threads wait for its result.",
                  "A JDK upgrade does not help: native frames pin on every release."),
              List.of(
                  Evidence.nanos("pinned time", pinned),
                  Evidence.text("share of pinned time", share),
                  Evidence.count("pinned events", Facts.events(sites), "events"),
                  Evidence.nanos("longest pin", Facts.maxNanos(sites))),
              k.jdk().virtualThreadsFinalIn() + "+",
              Facts.DOCS + ID,
              pinned,
              List.of(c.className()),
              List.of()));
    }
    return findings;
  }
}
