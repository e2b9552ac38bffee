package dev.vtscope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.advice.Severity;
import dev.vtscope.scan.CallListing;
import dev.vtscope.scan.ChainStep;
import dev.vtscope.scan.Demotion;
import dev.vtscope.scan.FindingKind;
import dev.vtscope.scan.KnownFix;
import dev.vtscope.scan.RecordedHit;
import dev.vtscope.scan.ScanAgreement;
import dev.vtscope.scan.ScanFinding;
import dev.vtscope.scan.ScanResult;
import dev.vtscope.scan.ScannedArchive;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code vtscope scan}'s result as text, a Markdown table, or JSON ({@code
 * docs/vtscope-scan.schema.json}). Class, method and artifact names come from the jars scanned, so
 * text and Markdown show them escaped.
 */
final class ScanReport {

  /** Bumped when a field is removed or changes meaning; adding fields keeps the version. */
  static final int SCHEMA_VERSION = 1;

  private ScanReport() {}

  /** What a finding's holder is, in a few words. */
  private static String holder(FindingKind kind) {
    return switch (kind) {
      case SYNCHRONIZED_METHOD -> "synchronized method";
      case SYNCHRONIZED_BLOCK -> "synchronized block";
      case CLASS_INIT -> "class initialiser";
      case NATIVE_METHOD -> "native method";
      case FOREIGN_UPCALL -> "foreign-function upcall";
      case JDK_MONITOR_CALLBACK -> "function run under a JDK monitor";
    };
  }

  /** What the holder does, as the sentence of a finding says it. */
  private static String verb(FindingKind kind) {
    return switch (kind) {
      case SYNCHRONIZED_METHOD, SYNCHRONIZED_BLOCK -> "holds a monitor across a blocking call";
      case CLASS_INIT -> "blocks while initialising its class";
      case NATIVE_METHOD -> "pins while it runs or while Java code it calls back blocks";
      case FOREIGN_UPCALL -> "makes an upcall stub: Java code run under a native frame";
      case JDK_MONITOR_CALLBACK -> "hands a function to a JDK method that runs it under a monitor";
    };
  }

  private static String summary(ScanResult result) {
    long high = count(result, Severity.HIGH);
    long medium = count(result, Severity.MEDIUM);
    long low = count(result, Severity.LOW);
    long info = count(result, Severity.INFO);
    return result.findings().size()
        + (result.findings().size() == 1 ? " finding" : " findings")
        + " in "
        + result.classes()
        + " classes of "
        + result.archives().size()
        + (result.archives().size() == 1 ? " jar or folder" : " jars and folders")
        + " (calls followed to depth "
        + result.depth()
        + "): "
        + high
        + " high, "
        + medium
        + " medium, "
        + low
        + " low"
        + (info > 0 ? ", " + info + " not ranked (library threads or test code)" : "");
  }

  private static long count(ScanResult result, Severity severity) {
    return result.findings().stream().filter(f -> f.severity() == severity).count();
  }

  static void text(ScanResult result, ScanAgreement recorded, PrintWriter out) {
    out.println("vtscope scan: " + summary(result));
    if (recorded != null) {
      out.println("  " + hitSummary(recorded));
    }
    for (ScannedArchive a : result.problems()) {
      out.println(
          "  ! skipped "
              + Escaping.terminal(a.location())
              + ": "
              + Escaping.terminalLine(a.problem()));
    }
    for (ScanFinding f : recorded == null ? result.findings() : recorded.ranked()) {
      RecordedHit hit = recorded == null ? null : recorded.hit(f);
      out.println();
      out.println(
          String.format(Locale.ROOT, "%-6s ", f.severity().label().toUpperCase(Locale.ROOT))
              + Escaping.terminal(f.qualifiedMethod())
              + parameters(f.descriptor())
              + lines(f)
              + " "
              + verb(f.kind()));
      out.println(
          "       "
              + holder(f.kind())
              + " in "
              + Escaping.terminal(f.artifact())
              + (f.release() > 0 ? " (its JDK " + f.release() + "+ variant)" : "")
              + "; pins on JDK "
              + f.releases().display()
              + (f.waitersPinnedUpTo() > 0
                  ? ", threads waiting for it pinned up to JDK " + f.waitersPinnedUpTo()
                  : "")
              + "; risk "
              + f.score()
              + (f.virtual() ? ", through a virtual call" : ""));
      if (hit != null) {
        out.println("       hit: " + hit(hit));
      }
      for (int i = 0; i < f.chain().size(); i++) {
        ChainStep s = f.chain().get(i);
        out.println(
            "       "
                + (i == 0 ? "   " : "-> ")
                + Escaping.terminal(s.qualifiedMethod())
                + (s.line() >= 0 ? " (line " + s.line() + ")" : "")
                + (s.virtual() ? " [one of its implementations]" : "")
                + (i == f.chain().size() - 1 && f.blocking() != null
                    ? "  " + f.blocking().name().toLowerCase(Locale.ROOT)
                    : ""));
      }
      if (f.fix() != null) {
        out.println("       fix: " + Escaping.terminalLine(fix(f.fix())));
      }
      if (f.demotion() != null) {
        out.println("       not ranked: " + Escaping.terminalLine(demotion(f.demotion())));
      }
    }
    for (CallListing l : result.listings()) {
      listing(l, out);
    }
    out.flush();
  }

  /** What the recordings hit, said once above the findings. */
  private static String hitSummary(ScanAgreement recorded) {
    int hits = recorded.hits().size();
    return hits == 0
        ? "the recordings hit none of the findings: no pinned or monitor site's culprit is one of"
            + " their methods"
        : "the recordings hit "
            + hits
            + (hits == 1 ? " finding, listed first" : " findings, listed first by carrier time");
  }

  /** A finding's share of the recordings. */
  static String hit(RecordedHit hit) {
    return hit.events()
        + (hit.events() == 1 ? " event, " : " events, ")
        + dev.vtscope.analysis.HumanDurations.format(hit.pinnedNanos())
        + " holding carriers in the recordings";
  }

  /** The calls of one {@code --calls-of} method, each with what is held there. */
  private static void listing(CallListing l, PrintWriter out) {
    out.println();
    out.print("calls of " + Escaping.terminal(l.qualifiedMethod()) + ":");
    if (l.classFiles().isEmpty()) {
      out.println(" no class " + Escaping.terminal(l.className()) + " in the class path");
      return;
    }
    out.println();
    for (CallListing.ClassFile file : l.classFiles()) {
      String where =
          Escaping.terminal(file.location())
              + (file.release() > 0 ? " (its JDK " + file.release() + "+ variant)" : "");
      if (file.overloads().isEmpty()) {
        out.println("  no method " + Escaping.terminal(l.method()) + " in " + where);
      }
      for (CallListing.Overload o : file.overloads()) {
        out.println(
            "  "
                + Escaping.terminal(l.method())
                + parameters(o.descriptor())
                + (o.synchronizedMethod() ? " synchronized" : "")
                + " in "
                + where);
        for (CallListing.Call c : o.calls()) {
          String held =
              o.synchronizedMethod()
                  ? "in the synchronized method"
                  : c.monitors() > 0 ? "in a synchronized block" : "outside any monitor";
          out.println(
              "     "
                  + (c.line() >= 0 ? "line " + c.line() + " " : "")
                  + Escaping.terminal(c.qualifiedMethod())
                  + parameters(c.descriptor())
                  + "  "
                  + held
                  + (c.blocking() == null
                      ? ""
                      : "; blocks: " + c.blocking().name().toLowerCase(Locale.ROOT)));
        }
      }
    }
  }

  /** Why a finding is not ranked, as its line says it. */
  private static String demotion(Demotion d) {
    return switch (d.reason()) {
          case LIBRARY_THREAD -> "runs only on threads the library starts: ";
          case TIMER_THREAD -> "runs only on a java.util.Timer's thread: ";
          case TEST_CODE -> "test code in the jar: ";
          case PACKAGE_NOT_RUN -> "in a package an application does not run, ";
          case NOT_CALLED -> "nothing in the class path calls it and its package is internal: ";
        }
        + d.root();
  }

  private static String lines(ScanFinding f) {
    return f.lines() == null ? "" : " " + f.lines();
  }

  private static String fix(KnownFix fix) {
    String release =
        fix.fixedIn() != null
            ? "fixed in " + fix.fixedIn() + " (last affected " + fix.lastAffected() + ")"
            : "no fixed release (checked up to " + fix.checkedUpTo() + ")";
    return fix.library()
        + (fix.knownPin() ? ", a pin vtscope knows: " : ": ")
        + release
        + ". "
        + fix.remedy()
        + " "
        + fix.source();
  }

  /** {@code (String, int)} of {@code (Ljava/lang/String;I)V}. */
  static String parameters(String descriptor) {
    List<String> types = new ArrayList<>();
    int i = 1;
    while (i < descriptor.length() && descriptor.charAt(i) != ')') {
      int dims = 0;
      while (descriptor.charAt(i) == '[') {
        dims++;
        i++;
      }
      String type;
      char c = descriptor.charAt(i);
      if (c == 'L') {
        int end = descriptor.indexOf(';', i);
        String name = descriptor.substring(i + 1, end);
        type = name.substring(name.lastIndexOf('/') + 1);
        i = end + 1;
      } else {
        type =
            switch (c) {
              case 'B' -> "byte";
              case 'C' -> "char";
              case 'D' -> "double";
              case 'F' -> "float";
              case 'I' -> "int";
              case 'J' -> "long";
              case 'S' -> "short";
              case 'Z' -> "boolean";
              default -> String.valueOf(c);
            };
        i++;
      }
      types.add(type + "[]".repeat(dims));
    }
    return "(" + String.join(", ", types) + ")";
  }

  static void markdown(ScanResult result, ScanAgreement recorded, PrintWriter out) {
    StringBuilder md =
        new StringBuilder("## vtscope scan\n\n")
            .append(Escaping.markdownText(summary(result)))
            .append(recorded == null ? "" : "; " + Escaping.markdownText(hitSummary(recorded)))
            .append("\n\n");
    for (ScannedArchive a : result.problems()) {
      md.append("- skipped ")
          .append(Escaping.markdownCode(a.location()))
          .append(": ")
          .append(Escaping.markdownText(a.problem()))
          .append("\n");
    }
    if (!result.findings().isEmpty()) {
      md.append(result.problems().isEmpty() ? "" : "\n")
          .append("| risk | method | artifact | what | blocking call chain | JDK | fix |\n")
          .append("|---|---|---|---|---|---|---|\n");
    }
    int shown = 0;
    for (ScanFinding f : recorded == null ? result.findings() : recorded.ranked()) {
      RecordedHit hit = recorded == null ? null : recorded.hit(f);
      if (md.length() > MarkdownReport.MAX_CHARS - 1_000) {
        md.append("| | … ")
            .append(result.findings().size() - shown)
            .append(" more: `vtscope scan` lists them | | | | | |\n");
        break;
      }
      List<String> chain = new ArrayList<>();
      for (ChainStep s : f.chain()) {
        chain.add(s.qualifiedMethod() + (s.line() >= 0 ? ":" + s.line() : ""));
      }
      md.append("| ")
          .append(f.severity().label())
          .append(" ")
          .append(f.score())
          .append(hit == null ? "" : "<br>**hit**: " + hit(hit))
          .append(" | ")
          .append(Escaping.markdownCodeCell(f.qualifiedMethod() + parameters(f.descriptor())))
          .append(" | ")
          .append(Escaping.markdownCodeCell(f.artifact()))
          .append(" | ")
          .append(holder(f.kind()))
          .append(f.lines() == null ? "" : ", " + f.lines())
          .append(" | ")
          .append(chain.isEmpty() ? "" : Escaping.markdownCodeCell(String.join(" → ", chain)) + " ")
          .append(f.blocking() == null ? "" : f.blocking().name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(f.releases().display())
          .append(" | ")
          .append(f.fix() == null ? "" : Escaping.markdownText(fix(f.fix())))
          .append(
              f.demotion() == null
                  ? ""
                  : (f.fix() == null ? "" : "; ")
                      + "not ranked: "
                      + Escaping.markdownText(demotion(f.demotion())))
          .append(" |\n");
      shown++;
    }
    out.print(md);
    out.flush();
  }

  static void json(ScanResult result, ScanAgreement recorded, String toolVersion, PrintWriter out) {
    ObjectNode root = JsonText.object();
    root.put("schemaVersion", SCHEMA_VERSION);
    root.putObject("tool").put("name", "vtscope").put("version", toolVersion);
    root.put("depth", result.depth());
    root.put("classes", result.classes());
    root.put("methods", result.methods());
    ObjectNode counts = root.putObject("counts");
    for (Severity s : List.of(Severity.HIGH, Severity.MEDIUM, Severity.LOW, Severity.INFO)) {
      counts.put(s.label(), count(result, s));
    }
    ArrayNode archives = root.putArray("archives");
    for (ScannedArchive a : result.archives()) {
      archives
          .addObject()
          .put("location", a.location())
          .put("artifact", a.artifact())
          .put("classes", a.classes())
          .put("problem", a.problem());
    }
    if (recorded != null) {
      root.put("findingsHit", recorded.hits().size());
    }
    ArrayNode findings = root.putArray("findings");
    for (ScanFinding f : recorded == null ? result.findings() : recorded.ranked()) {
      ObjectNode o = finding(f);
      if (recorded != null) {
        RecordedHit hit = recorded.hit(f);
        if (hit == null) {
          o.putNull("hit");
        } else {
          o.putObject("hit").put("events", hit.events()).put("pinnedNanos", hit.pinnedNanos());
        }
      }
      findings.add(o);
    }
    if (!result.listings().isEmpty()) {
      ArrayNode listings = root.putArray("callsOf");
      for (CallListing l : result.listings()) {
        ObjectNode o =
            listings.addObject().put("className", l.className()).put("method", l.method());
        ArrayNode files = o.putArray("classFiles");
        for (CallListing.ClassFile file : l.classFiles()) {
          ObjectNode f =
              files.addObject().put("location", file.location()).put("release", file.release());
          ArrayNode overloads = f.putArray("overloads");
          for (CallListing.Overload ov : file.overloads()) {
            ObjectNode m =
                overloads
                    .addObject()
                    .put("descriptor", ov.descriptor())
                    .put("synchronized", ov.synchronizedMethod())
                    .put("monitorEnter", ov.monitorEnter());
            ArrayNode calls = m.putArray("calls");
            for (CallListing.Call c : ov.calls()) {
              calls
                  .addObject()
                  .put("owner", c.owner())
                  .put("name", c.name())
                  .put("descriptor", c.descriptor())
                  .put("line", c.line())
                  .put("monitors", c.monitors())
                  .put("blocking", c.blocking() == null ? null : c.blocking().name());
            }
          }
        }
      }
    }
    out.println(JsonText.pretty(root));
    out.flush();
  }

  /** A finding as the scan's JSON lists it. */
  static ObjectNode finding(ScanFinding f) {
    ObjectNode o =
        JsonText.object()
            .put("severity", f.severity().label())
            .put("score", f.score())
            .put("kind", f.kind().name())
            .put("artifact", f.artifact())
            .put("location", f.location())
            .put("release", f.release())
            .put("className", f.className())
            .put("method", f.method())
            .put("descriptor", f.descriptor());
    if (f.lines() == null) {
      o.putNull("lines");
    } else {
      o.putObject("lines").put("first", f.lines().first()).put("last", f.lines().last());
    }
    o.put("blocking", f.blocking() == null ? null : f.blocking().name());
    o.put("virtual", f.virtual());
    o.set("chain", chain(f));
    ObjectNode releases = o.putObject("releases").put("first", f.releases().first());
    if (f.releases().last() == 0) {
      releases.putNull("last");
    } else {
      releases.put("last", f.releases().last());
    }
    if (f.waitersPinnedUpTo() > 0) {
      o.put("waitersPinnedUpTo", f.waitersPinnedUpTo());
    } else {
      o.putNull("waitersPinnedUpTo");
    }
    if (f.fix() == null) {
      o.putNull("fix");
    } else {
      KnownFix k = f.fix();
      o.putObject("fix")
          .put("library", k.library())
          .put("knownPin", k.knownPin())
          .put("fixedIn", k.fixedIn())
          .put("lastAffected", k.lastAffected())
          .put("checkedUpTo", k.checkedUpTo())
          .put("remedy", k.remedy())
          .put("source", k.source());
    }
    if (f.demotion() == null) {
      o.putNull("demotion");
    } else {
      o.putObject("demotion")
          .put("reason", f.demotion().reason().name())
          .put("root", f.demotion().root());
    }
    return o;
  }

  /** A finding's chain, the method first, the blocking JDK method last. */
  static ArrayNode chain(ScanFinding f) {
    ArrayNode chain = JsonText.array();
    for (ChainStep s : f.chain()) {
      chain
          .addObject()
          .put("className", s.className())
          .put("method", s.method())
          .put("descriptor", s.descriptor())
          .put("line", s.line())
          .put("virtual", s.virtual());
    }
    return chain;
  }
}
