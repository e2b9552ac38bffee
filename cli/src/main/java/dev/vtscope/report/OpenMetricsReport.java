package dev.vtscope.report;

import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Message;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import java.io.PrintWriter;
import java.math.BigDecimal;

/**
 * The analysis as OpenMetrics text, the format Prometheus scrapes, a Pushgateway takes and
 * node_exporter's textfile collector reads ({@code docs/metrics.md}). Metric names are Micrometer's
 * where it has the same metric ({@code jvm.threads.virtual.pinned}), with the unit in the name;
 * what only vtscope knows starts with {@code vtscope_}. Help texts are worded in {@code
 * wording.properties}.
 */
public final class OpenMetricsReport implements ReportRenderer {

  /** The media type of this format, for an HTTP response. */
  public static final String CONTENT_TYPE =
      "application/openmetrics-text; version=1.0.0; charset=utf-8";

  static final String PINNED = "jvm_threads_virtual_pinned_seconds";
  static final String SUBMIT_FAILED = "jvm_threads_virtual_submit_failed";
  static final String PARALLELISM = "jvm_threads_virtual_parallelism";
  static final String CARRIERS_HELD = "vtscope_carriers_held_peak";
  static final String FINDINGS = "vtscope_findings";

  private static final Wording WORDING = Wording.standard();

  private final int top;

  /**
   * @param top how many holders of an analysis get series of their own; the rest are one "other"
   *     series
   */
  public OpenMetricsReport(int top) {
    this.top = top;
  }

  @Override
  public void render(Report report, PrintWriter out) {
    if (!(report instanceof Report.Analyzed r)) {
      throw new IllegalArgumentException("OpenMetrics shows an analysis, not a check or a diff");
    }
    render(PinningMetrics.of(r.analysis(), r.advice(), top), out);
  }

  /** Writes {@code metrics}, ending with the {@code # EOF} line the format requires. */
  public void render(PinningMetrics metrics, PrintWriter out) {
    family(out, PINNED, "summary", "seconds", "metrics.pinned");
    for (SiteSeries s : metrics.sites()) {
      pinned(out, s);
    }
    pinned(out, metrics.other());

    family(out, SUBMIT_FAILED, "counter", null, "metrics.submit-failed");
    out.append(SUBMIT_FAILED).append("_total ").println(metrics.submitFailures());

    family(out, CARRIERS_HELD, "gauge", null, "metrics.carriers-held-peak");
    out.append(CARRIERS_HELD).append(' ').println(metrics.carriersHeldPeak());

    if (metrics.parallelism() > 0) {
      family(out, PARALLELISM, "gauge", null, "metrics.parallelism");
      out.append(PARALLELISM).append(' ').println(metrics.parallelism());
    }

    family(out, FINDINGS, "gauge", null, "metrics.findings");
    for (Severity severity : Severity.values()) {
      out.append(FINDINGS).append("{severity=\"").append(severity.label()).append("\"} ");
      out.println(metrics.findings().get(severity));
    }
    out.println("# EOF");
    out.flush();
  }

  private static void family(PrintWriter out, String name, String type, String unit, String help) {
    out.append("# TYPE ").append(name).append(' ').println(type);
    if (unit != null) {
      out.append("# UNIT ").append(name).append(' ').println(unit);
    }
    out.append("# HELP ").append(name).append(' ');
    out.println(Escaping.openMetrics(WORDING.format(Message.of(help))));
  }

  private static void pinned(PrintWriter out, SiteSeries s) {
    String labels = labels(s.holder());
    out.append(PINNED).append("_count").append(labels).append(' ').println(s.events());
    out.append(PINNED).append("_sum").append(labels).append(' ').println(seconds(s.nanos()));
  }

  private static String labels(SiteSeries.Holder h) {
    return "{holder_class=\""
        + Escaping.openMetrics(h.className())
        + "\",holder_method=\""
        + Escaping.openMetrics(h.method())
        + "\",kind=\""
        + Escaping.openMetrics(h.kind())
        + "\",artifact=\""
        + Escaping.openMetrics(h.artifact())
        + "\"}";
  }

  /** Nanoseconds as exact decimal seconds: {@code 0.02}, {@code 1.5}, {@code 0}. */
  static String seconds(long nanos) {
    return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
  }
}
