package dev.vtscope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.analysis.Message;
import dev.vtscope.gate.CheckItem;
import dev.vtscope.gate.CheckResult;
import java.io.PrintWriter;
import java.util.List;

/** {@code vtscope check}'s result as text (a line per check), a Markdown table, or JSON. */
final class CheckReport {

  private static final Wording WORDING = Wording.standard();
  private static final Wording TEXT = Wording.terminal();
  private static final Wording MARKDOWN = Wording.markdown();

  private CheckReport() {}

  static void text(CheckResult result, List<String> recordings, String noun, PrintWriter out) {
    out.println("vtscope check: " + verdict(result, recordings.size(), noun, "passed", "FAILED"));
    for (CheckItem item : result.items()) {
      out.println(
          "  "
              + (item.passed() ? "ok    " : "FAIL  ")
              + TEXT.format(item.name())
              + ": "
              + TEXT.format(item.result()));
      String where = where(item, recordings, TEXT);
      if (!where.isEmpty()) {
        out.println("        " + where);
      }
    }
    for (Message allowed : result.allowed()) {
      out.println("  allow " + TEXT.format(allowed));
    }
    for (Message warning : result.warnings()) {
      out.println("  ! " + TEXT.format(warning));
    }
    out.flush();
  }

  static void markdown(CheckResult result, List<String> recordings, String noun, PrintWriter out) {
    StringBuilder md =
        new StringBuilder("## vtscope check: ")
            .append(verdict(result, recordings.size(), noun, "passed", "**failed**"))
            .append("\n\n| | check | result |\n|---|---|---|\n");
    for (CheckItem item : result.items()) {
      if (md.length() > MarkdownReport.MAX_CHARS - 500) {
        md.append("| | … | more checks: `vtscope check` lists them |\n");
        break;
      }
      md.append("| ")
          .append(item.passed() ? "ok" : "**FAIL**")
          .append(" | ")
          .append(Escaping.markdownText(MARKDOWN.format(item.name())))
          .append(" | ")
          .append(Escaping.markdownText(MARKDOWN.format(item.result())))
          .append(where(item, recordings, MARKDOWN).isEmpty() ? "" : " ")
          .append(Escaping.markdownText(where(item, recordings, MARKDOWN)))
          .append(" |\n");
    }
    if (!result.allowed().isEmpty()) {
      md.append("\nAllowed: ");
      md.append(
          String.join(
              ", ",
              result.allowed().stream()
                  .map(MARKDOWN::format)
                  .map(Escaping::markdownCode)
                  .toList()));
      md.append('\n');
    }
    if (!result.warnings().isEmpty()) {
      md.append("\n**Warnings:**\n\n");
      result
          .warnings()
          .forEach(
              w -> md.append("- ").append(Escaping.markdownText(MARKDOWN.format(w))).append('\n'));
    }
    out.print(md);
    out.flush();
  }

  /**
   * The check as JSON: {@code passed}, {@code failures}, one object per check (a failed finding
   * with the whole finding, as {@code analyze} writes it) and what the allow-list left out.
   */
  static void json(
      CheckResult result, List<String> recordings, String toolVersion, PrintWriter out) {
    ObjectNode root = JsonText.object();
    root.put("schemaVersion", JsonReport.SCHEMA_VERSION);
    root.putObject("tool").put("name", "vtscope").put("version", toolVersion);
    root.put("recordings", recordings.size());
    // what the findings' recording indices point at
    ArrayNode inputs = root.putArray("inputs");
    recordings.forEach(inputs::add);
    root.put("passed", result.passed());
    root.put("failures", result.failures());
    ArrayNode checks = root.putArray("checks");
    for (CheckItem item : result.items()) {
      ObjectNode check =
          checks
              .addObject()
              .put("kind", item.kind())
              .put("name", WORDING.format(item.name()))
              .put("passed", item.passed())
              .put("result", WORDING.format(item.result()));
      check.set("figures", JsonText.tree(Wording.figures(item.result())));
      if (item.finding() != null) {
        check.set("finding", JsonReport.finding(item.finding(), recordings));
      }
    }
    ArrayNode allowed = root.putArray("allowed");
    result.allowed().forEach(m -> allowed.add(WORDING.format(m)));
    ArrayNode warnings = root.putArray("warnings");
    result.warnings().forEach(m -> warnings.add(WORDING.format(m)));
    out.println(JsonText.pretty(root));
    out.flush();
  }

  /** Of a finding of several recordings, which have it and whose figures it shows; or "". */
  private static String where(CheckItem item, List<String> recordings, Wording wording) {
    return item.finding() == null || item.finding().spread() == null
        ? ""
        : wording.format(item.finding().spread().said(recordings));
  }

  /** A failed check's longer text: a finding's explanation and actions, or its result. */
  static String detail(CheckItem item) {
    if (item.finding() == null) {
      return WORDING.format(item.result());
    }
    return WORDING.explanation(item.finding())
        + "\n"
        + String.join("\n", WORDING.actions(item.finding()));
  }

  /**
   * @param noun what was read, singular: {@code recording} or {@code dump}
   */
  private static String verdict(
      CheckResult result, int recordings, String noun, String ok, String failed) {
    return (result.passed() ? ok : failed)
        + " ("
        + result.failures()
        + " of "
        + result.items().size()
        + " checks failed; "
        + recordings
        + " "
        + noun
        + (recordings == 1 ? "" : "s")
        + ")";
  }
}
