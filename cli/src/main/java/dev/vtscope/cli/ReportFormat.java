package dev.vtscope.cli;

import dev.vtscope.report.HtmlReport;
import dev.vtscope.report.JsonReport;
import dev.vtscope.report.MarkdownReport;
import dev.vtscope.report.OpenMetricsReport;
import dev.vtscope.report.OtlpJsonReport;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import java.util.Locale;
import java.util.Set;

/**
 * The forms a report takes, as {@code --format} and explore's {@code save} name them, and the one
 * place where a form becomes its renderer. A command offers the forms its report has ({@link
 * #options}); check and diff have no page or metrics of their own.
 */
enum ReportFormat {
  TEXT,
  JSON,
  MARKDOWN,
  HTML,
  OPENMETRICS,
  OTLP_JSON;

  /** The name users type: {@code json}, {@code otlp-json}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether programs read it, where nothing else may be written (a progress line). */
  boolean machineReadable() {
    return this != TEXT;
  }

  /**
   * The renderer of this form.
   *
   * @param text how the text report is laid out
   * @param top holders with series of their own in OpenMetrics and OTLP JSON
   */
  ReportRenderer renderer(TextStyle text, int top) {
    return switch (this) {
      case TEXT -> new TextReport(text);
      case JSON -> new JsonReport(VtScope.version());
      case MARKDOWN -> new MarkdownReport();
      case HTML -> new HtmlReport();
      case OPENMETRICS -> new OpenMetricsReport(top);
      case OTLP_JSON -> new OtlpJsonReport(top, VtScope.version());
    };
  }

  /**
   * The form of {@code value} among {@code offered}, or null when it names none of them: the caller
   * says what is offered, in its own words.
   */
  static ReportFormat among(Set<ReportFormat> offered, String value) {
    for (ReportFormat format : offered) {
      if (format.label().equalsIgnoreCase(value.trim())) {
        return format;
      }
    }
    return null;
  }
}
