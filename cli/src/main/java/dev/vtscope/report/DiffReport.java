package dev.vtscope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Note;
import dev.vtscope.gate.DiffResult;
import dev.vtscope.gate.SiteChange;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** {@code vtscope diff} as text or as the JSON of docs/vtscope-diff.schema.json. */
final class DiffReport {

  private static final Wording WORDING = Wording.standard();
  private static final Wording TEXT = Wording.terminal();
  private static final Wording MARKDOWN = Wording.markdown();

  private DiffReport() {}

  static void text(DiffResult d, PrintWriter out) {
    out.println("vtscope: before/after");
    out.println("  before  " + describe(d.before(), d.beforeRecordedNanos()));
    out.println("  after   " + describe(d.after(), d.afterRecordedNanos()));
    out.println(
        String.format(
            Locale.ROOT,
            "  pinned  %s -> %s; every carrier held %s -> %s; rejected tasks %d -> %d",
            pinned(d.before(), TEXT),
            pinned(d.after(), TEXT),
            HumanDurations.format(saturated(d.before())),
            HumanDurations.format(saturated(d.after())),
            d.before().submitFailed().events(),
            d.after().submitFailed().events()));
    for (Note note : d.notes()) {
      out.println("  ! " + TEXT.message(note));
    }
    out.println();
    if (d.sites().isEmpty()) {
      out.println(
          d.pinningCompared()
              ? "No site that held carriers (pinned, monitor, CPU run, file I/O, compensation) in"
                  + " either recording."
              : "No site that held carriers (monitor, CPU run, file I/O, compensation) in either"
                  + " recording; pinned sites are not compared.");
    }
    for (SiteChange c : d.sites()) {
      out.println(
          String.format(
              Locale.ROOT,
              "  %-6s %-13s %s%s",
              c.status().label(),
              sectionLabel(c.section()),
              Escaping.terminal(c.culprit()),
              c.kind() == null
                  ? ""
                  : "  (" + c.kind().toLowerCase(Locale.ROOT).replace('_', ' ') + ")"));
      out.println(
          String.format(
              Locale.ROOT,
              "         %s -> %s%s%s",
              amount(c.beforeNanos(), c.beforeEvents()),
              amount(c.afterNanos(), c.afterEvents()),
              c.status() == SiteChange.Status.HIDDEN
                  ? "  (" + TEXT.format(hidden(c)) + ")"
                  : !c.status().regression() || c.regression()
                      ? ""
                      : c.allowedBy() != null
                          ? "  (allowed by "
                              + Escaping.terminal(c.allowedBy())
                              + ": not a regression)"
                          : c.warmUp()
                              ? "  (warm-up: not a regression)"
                              : "  (under 1 ms: not a regression)",
              moved(c).map(m -> "  (" + TEXT.format(m) + ")").orElse("")));
    }
    out.println();
    out.println(
        String.format(
            Locale.ROOT,
            "%d fixed, %d new, %d worse, %d better, %d same (same: within %.0f%% or 1 ms)%s%s%s",
            d.count(SiteChange.Status.FIXED),
            d.count(SiteChange.Status.NEW),
            d.count(SiteChange.Status.WORSE),
            d.count(SiteChange.Status.BETTER),
            d.count(SiteChange.Status.SAME),
            d.tolerance() * 100,
            hiddenCount(d),
            d.regression() ? ": REGRESSION" : "",
            d.pinningCompared()
                ? ""
                : d.regression() ? ", PINNING NOT COMPARED" : ": PINNING NOT COMPARED"));
    out.flush();
  }

  /**
   * The comparison as Markdown for a pull request: a verdict line, then a table of what changed,
   * regressions first, fixes after (what stayed the same is counted, not listed).
   */
  static void markdown(DiffResult d, PrintWriter out) {
    StringBuilder md = new StringBuilder("## vtscope diff: ");
    md.append(d.regression() ? "regression" : "no regression");
    md.append(d.pinningCompared() ? "" : ", pinning not compared").append("\n\n");
    for (Note note : d.notes()) {
      md.append("- **Note:** ").append(Escaping.markdownText(MARKDOWN.message(note))).append('\n');
    }
    if (!d.notes().isEmpty()) {
      md.append('\n');
    }
    md.append("| | before | after |\n|---|---:|---:|\n");
    md.append("| recording | ")
        .append(Escaping.markdownCodeCell(name(d.before())))
        .append(" | ")
        .append(Escaping.markdownCodeCell(name(d.after())))
        .append(" |\n");
    md.append("| pinned | ")
        .append(pinned(d.before(), MARKDOWN))
        .append(" | ")
        .append(pinned(d.after(), MARKDOWN))
        .append(" |\n");
    md.append("| every carrier held | ")
        .append(HumanDurations.format(saturated(d.before())))
        .append(" | ")
        .append(HumanDurations.format(saturated(d.after())))
        .append(" |\n");
    md.append("| rejected tasks | ")
        .append(d.before().submitFailed().events())
        .append(" | ")
        .append(d.after().submitFailed().events())
        .append(" |\n\n");
    List<SiteChange> listed =
        d.sites().stream().filter(c -> c.status() != SiteChange.Status.SAME).toList();
    if (!listed.isEmpty()) {
      md.append("| | where | holds the carrier | before | after |\n|---|---|---|---:|---:|\n");
      int rows = 0;
      for (SiteChange c : listed) {
        if (md.length() > MarkdownReport.MAX_CHARS - 500) {
          md.append("\n_").append(listed.size() - rows).append(" more changes._\n");
          break;
        }
        md.append("| ")
            .append(c.regression() ? "**" + c.status().label() + "**" : c.status().label())
            .append(" | ")
            .append(sectionLabel(c.section()))
            .append(
                moved(c)
                    .map(m -> " (" + Escaping.markdownText(MARKDOWN.format(m)) + ")")
                    .orElse(""))
            .append(" | ")
            .append(Escaping.markdownCodeCell(c.culprit()))
            .append(" | ")
            .append(HumanDurations.format(c.beforeNanos()))
            .append(" (")
            .append(c.beforeEvents())
            .append(") | ")
            .append(HumanDurations.format(c.afterNanos()))
            .append(" (")
            .append(c.afterEvents())
            .append(") |\n");
        rows++;
      }
      md.append('\n');
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%d fixed, %d new, %d worse, %d better, %d same (same: within %.0f%% or 1 ms)%s.%n",
            d.count(SiteChange.Status.FIXED),
            d.count(SiteChange.Status.NEW),
            d.count(SiteChange.Status.WORSE),
            d.count(SiteChange.Status.BETTER),
            d.count(SiteChange.Status.SAME),
            d.tolerance() * 100,
            hiddenCount(d)));
    out.print(md);
    out.flush();
  }

  /** A side's pinned time, or that it could record none. */
  private static String pinned(Analysis a, Wording wording) {
    return a.recordingsWithoutPinning().isEmpty()
        ? HumanDurations.format(a.pinned().totalNanos())
        : wording.format(Message.of("diff.pinned-off"));
  }

  /** A culprit's total time and events on one side: {@code 2 s in 200 events}. */
  private static String amount(long nanos, long events) {
    return TEXT.format(Message.of("diff.amount", "total", Message.nanos(nanos), "events", events));
  }

  /** Where a culprit was before, when the JDKs record it in different sections. */
  private static java.util.Optional<Message> moved(SiteChange c) {
    return c.beforeSection().equals(c.section())
        ? java.util.Optional.empty()
        : java.util.Optional.of(
            Message.of("diff.moved", "before", sectionLabel(c.beforeSection())));
  }

  /** Why a hidden culprit is neither fixed nor new. */
  private static Message hidden(SiteChange c) {
    return Message.of(
        c.afterEvents() == 0 ? "diff.hidden-after" : "diff.hidden-before",
        "threshold",
        Message.nanos(c.hiddenByNanos()));
  }

  /** The culprits a threshold hid, when there are any. */
  private static String hiddenCount(DiffResult d) {
    long hidden = d.count(SiteChange.Status.HIDDEN);
    return hidden == 0 ? "" : TEXT.format(Message.of("diff.hidden-count", "hidden", hidden));
  }

  private static String name(Analysis a) {
    return a.inputs().isEmpty() ? "" : a.inputs().get(0).name();
  }

  static String sectionLabel(String section) {
    return switch (section) {
      case "pinned" -> "pinned";
      case "monitorEnter" -> "monitor-enter";
      case "monitorWait" -> "monitor-wait";
      case "cpuRuns" -> "cpu-run";
      case "fileIo" -> "file-io";
      case "compensation" -> "compensation";
      default -> section;
    };
  }

  static void json(DiffResult d, String toolVersion, PrintWriter out) {
    ObjectNode root = JsonText.object();
    root.put("schemaVersion", 1);
    root.putObject("tool").put("name", "vtscope").put("version", toolVersion);
    root.set("before", side(d.before(), d.beforeRecordedNanos()));
    root.set("after", side(d.after(), d.afterRecordedNanos()));
    root.put("tolerance", d.tolerance());
    root.put("regression", d.regression());
    root.put("pinningCompared", d.pinningCompared());
    root.put("passed", d.passed());
    ArrayNode notes = root.putArray("notes");
    for (Note note : d.notes()) {
      ObjectNode item =
          notes
              .addObject()
              .put("id", note.id())
              .put("severity", note.severity().name().toLowerCase(Locale.ROOT))
              .put("message", WORDING.message(note));
      item.set("figures", JsonText.tree(Wording.figures(note.message())));
    }
    ObjectNode counts = root.putObject("counts");
    for (SiteChange.Status s : SiteChange.Status.values()) {
      counts.put(s.label(), d.count(s));
    }
    ArrayNode sites = root.putArray("sites");
    for (SiteChange c : d.sites()) {
      ObjectNode node = sites.addObject();
      node.put("section", c.section());
      node.put("beforeSection", c.beforeSection());
      node.put("key", c.key());
      node.put("culprit", c.culprit());
      node.put("kind", c.kind());
      node.put("status", c.status().label());
      node.put("regression", c.regression());
      node.put("warmUp", c.warmUp());
      node.put("allowedBy", c.allowedBy());
      node.put("hiddenByNanos", c.hiddenByNanos());
      node.putObject("before").put("events", c.beforeEvents()).put("totalNanos", c.beforeNanos());
      node.putObject("after").put("events", c.afterEvents()).put("totalNanos", c.afterNanos());
    }
    out.println(JsonText.pretty(root));
    out.flush();
  }

  private static ObjectNode side(Analysis a, long recordedNanos) {
    ObjectNode node = JsonText.object();
    node.put("path", a.inputs().isEmpty() ? null : a.inputs().get(0).name());
    node.put("jdkFeature", a.feature() == 0 ? null : a.feature());
    node.put("durationNanos", recordedNanos);
    node.put("pinnedEvents", a.pinned().events());
    node.put("pinnedTotalNanos", a.pinned().totalNanos());
    node.put("saturatedNanos", saturated(a));
    node.put("submitFailed", a.submitFailed().events());
    ArrayNode off = node.putArray("withoutPinning");
    a.recordingsWithoutPinning().forEach(off::add);
    return node;
  }

  private static long saturated(Analysis a) {
    return a.carriers() == null ? 0 : a.carriers().saturatedNanos();
  }

  private static String describe(Analysis a, long recordedNanos) {
    StringBuilder text = new StringBuilder();
    text.append(a.inputs().isEmpty() ? "?" : Escaping.terminal(a.inputs().get(0).name()));
    if (a.feature() > 0) {
      text.append("  (JDK ").append(a.feature());
    } else {
      text.append("  (JDK unknown");
    }
    text.append(", ").append(HumanDurations.format(recordedNanos)).append(" recorded)");
    return text.toString();
  }
}
