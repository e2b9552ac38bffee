package dev.vtscope.report;

import dev.vtscope.analysis.Message;
import dev.vtscope.metrics.SiteSeries;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * vtscope's metrics as OpenTelemetry names them: the one table that {@code analyze --format
 * otlp-json} and the agent's OpenTelemetry instruments share ({@code docs/metrics.md}). The two
 * names OpenTelemetry's own JFR-based runtime metrics have ({@code jvm.thread.virtual.pinned}, a
 * histogram in seconds, and {@code jvm.thread.virtual.submit_failed}, a counter) are taken as they
 * are, so that a dashboard made for them reads vtscope's series, which add the holder's attributes.
 * The attributes are Micrometer's tags with {@code vtscope.} in front and dots for underscores.
 */
public final class OpenTelemetryNames {

  /** The instrumentation scope of every metric. */
  public static final String SCOPE = "dev.vtscope";

  public static final String PINNED = "jvm.thread.virtual.pinned";
  public static final String SUBMIT_FAILED = "jvm.thread.virtual.submit_failed";
  public static final String PARALLELISM = "jvm.thread.virtual.parallelism";
  public static final String CARRIERS_HELD = "vtscope.carriers.held.peak";
  public static final String FINDINGS = "vtscope.findings";

  /** UCUM units, as the semantic conventions write them: seconds, and annotated counts. */
  public static final String SECONDS = "s";

  public static final String THREADS = "{thread}";
  public static final String FINDINGS_UNIT = "{finding}";

  public static final String HOLDER_CLASS = "vtscope.holder.class";
  public static final String HOLDER_METHOD = "vtscope.holder.method";
  public static final String KIND = "vtscope.kind";
  public static final String ARTIFACT = "vtscope.artifact";
  public static final String SEVERITY = "vtscope.severity";

  private static final Wording WORDING = Wording.standard();

  private OpenTelemetryNames() {}

  /** The attributes of a holder's series, in this order. */
  public static Map<String, String> attributes(SiteSeries.Holder holder) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put(HOLDER_CLASS, holder.className());
    attributes.put(HOLDER_METHOD, holder.method());
    attributes.put(KIND, holder.kind());
    attributes.put(ARTIFACT, holder.artifact());
    return attributes;
  }

  /** The description of a metric, worded in {@code wording.properties} ({@code metrics.*}). */
  public static String description(String metric) {
    String key =
        switch (metric) {
          case PINNED -> "metrics.pinned-otel";
          case SUBMIT_FAILED -> "metrics.submit-failed";
          case PARALLELISM -> "metrics.parallelism";
          case CARRIERS_HELD -> "metrics.carriers-held-peak";
          case FINDINGS -> "metrics.findings";
          default -> throw new IllegalArgumentException("not one of vtscope's metrics: " + metric);
        };
    return WORDING.format(Message.of(key));
  }
}
