package dev.vtscope.report;

import dev.vtscope.gate.CheckItem;
import dev.vtscope.gate.CheckResult;
import java.io.PrintWriter;

/** {@code vtscope check}'s result as text (a line per check) or as a Markdown table. */
public final class CheckReport {

  private CheckReport() {}

  public static void text(CheckResult result, int recordings, PrintWriter out) {
    out.println("vtscope check: " + verdict(result, recordings, "passed", "FAILED"));
    for (CheckItem item : result.items()) {
      out.println(
          "  " + (item.passed() ? "ok    " : "FAIL  ") + item.name() + ": " + item.message());
    }
    for (String allowed : result.allowed()) {
      out.println("  allow " + allowed);
    }
    out.flush();
  }

  public static void markdown(CheckResult result, int recordings, PrintWriter out) {
    StringBuilder md =
        new StringBuilder("## vtscope check: ")
            .append(verdict(result, recordings, "passed", "**failed**"))
            .append("\n\n| | check | result |\n|---|---|---|\n");
    for (CheckItem item : result.items()) {
      if (md.length() > Markdown.MAX_CHARS - 500) {
        md.append("| | … | more checks: `vtscope check` lists them |\n");
        break;
      }
      md.append("| ")
          .append(item.passed() ? "ok" : "**FAIL**")
          .append(" | ")
          .append(Markdown.text(item.name()))
          .append(" | ")
          .append(Markdown.text(item.message()))
          .append(" |\n");
    }
    if (!result.allowed().isEmpty()) {
      md.append("\nAllowed: ");
      md.append(String.join(", ", result.allowed().stream().map(Markdown::code).toList()));
      md.append('\n');
    }
    out.print(md);
    out.flush();
  }

  private static String verdict(CheckResult result, int recordings, String ok, String failed) {
    return (result.passed() ? ok : failed)
        + " ("
        + result.failures()
        + " of "
        + result.items().size()
        + " checks failed; "
        + recordings
        + (recordings == 1 ? " recording" : " recordings")
        + ")";
  }
}
