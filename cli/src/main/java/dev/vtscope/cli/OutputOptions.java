package dev.vtscope.cli;

import dev.vtscope.report.JsonReport;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import picocli.CommandLine.Option;

/** How a report is written: format, colour and length. */
final class OutputOptions {

  enum Format {
    TEXT,
    JSON
  }

  enum ColorMode {
    AUTO,
    ALWAYS,
    NEVER
  }

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "text (default): a report to read; json: the document in docs/json.md.")
  private Format format = Format.TEXT;

  @Option(
      names = "--color",
      paramLabel = "WHEN",
      description = "auto (default): colour on a terminal unless NO_COLOR is set; always; never.")
  private ColorMode color = ColorMode.AUTO;

  @Option(
      names = "--top",
      paramLabel = "N",
      description = "Sites shown per section in the text report (default: ${DEFAULT-VALUE}).")
  private int top = 10;

  ReportRenderer renderer(TerminalFacts terminal) {
    if (format == Format.JSON) {
      return new JsonReport(VtScope.version());
    }
    boolean useColor =
        switch (color) {
          case ALWAYS -> true;
          case NEVER -> false;
          case AUTO -> terminal.interactive() && !terminal.noColor();
        };
    int width = terminal.interactive() ? terminal.width() : TextStyle.PLAIN.width();
    return new TextReport(new TextStyle(width, useColor, Math.max(1, top)));
  }
}
