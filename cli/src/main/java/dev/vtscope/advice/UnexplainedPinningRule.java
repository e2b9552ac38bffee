package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
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
      List<String> actions = new ArrayList<>();
      if (truncated > 0) {
        actions.add(
            "Re-record with deeper stacks (-XX:FlightRecorderOptions:stackdepth=256): "
                + truncated
                + " of these stacks were truncated, so the frame holding the carrier may be cut"
                + " off.");
      }
      // Only when some frames' class files were not found: --classpath is what lets vtscope read
      // them (the attribution says so in its detail).
      boolean unchecked = c.detail() != null && c.detail().contains("--classpath");
      if (monitorsPin && unchecked) {
        boolean given =
            c.detail().contains(dev.vtscope.attribution.Attributor.NOT_IN_CLASS_PATH_GIVEN);
        actions.add(
            (given
                    ? "Add to --classpath the jars or folders that hold "
                        + c.className()
                        + " (the --classpath given does not), so vtscope can find the synchronized"
                        + " block around "
                    : "Pass the application's jars with --classpath so vtscope can find the"
                        + " synchronized block around ")
                + c.qualifiedMethod()
                + "; then the monitor-pinning advice applies (a ReentrantLock, or JDK "
                + k.jdk().monitorsStopPinningIn()
                + "+).");
      }
      if (c.detail() != null
          && c.detail().contains(dev.vtscope.attribution.Attributor.JDK_MISSING)) {
        actions.add(
            "Install the recording's JDK release"
                + (a.jvm() != null && a.jvm().javaVersion() != null
                    ? " (" + a.jvm().javaVersion() + ")"
                    : "")
                + " where vtscope finds JDKs (JAVA_HOME, java on PATH, /usr/lib/jvm, SDKMAN, ~/.jdks)"
                + " and run again: vtscope reads the JDK's own class files to find monitors held in"
                + " JDK code.");
      }
      if (truncated < Facts.events(sites)) {
        actions.add(
            "Read the stack in the site details, from the blocking call down through "
                + c.qualifiedMethod()
                + ": the frame that holds the carrier is on it, though vtscope did not recognise"
                + " it.");
      }
      findings.add(
          new Finding(
              ID,
              Facts.severity(a, k, pinned),
              "Pins in "
                  + c.qualifiedMethod()
                  + " with no located cause"
                  + (reason == null ? "" : " (reason: " + reason + ")"),
              Facts.plural(Facts.events(sites), "pin")
                  + " lasted "
                  + Facts.duration(pinned)
                  + " in total ("
                  + Facts.percent(pinned, a.pinned().totalNanos())
                  + " of all pinned time), but no synchronized method, native frame or class"
                  + " initialiser was found on their stacks.",
              actions,
              List.of(
                  Evidence.nanos("pinned time", pinned),
                  Evidence.count("pinned events", Facts.events(sites), "events"),
                  Evidence.count("truncated stacks", truncated, "events")),
              k.jdk().virtualThreadsFinalIn() + "+",
              Facts.DOCS + ID,
              pinned,
              List.of(c.className()),
              List.of()));
    }
    return findings;
  }
}
