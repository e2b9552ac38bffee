package dev.vtscope.report;

import static dev.vtscope.report.OpenTelemetryNames.CARRIERS_HELD;
import static dev.vtscope.report.OpenTelemetryNames.FINDINGS;
import static dev.vtscope.report.OpenTelemetryNames.PARALLELISM;
import static dev.vtscope.report.OpenTelemetryNames.PINNED;
import static dev.vtscope.report.OpenTelemetryNames.SUBMIT_FAILED;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import dev.vtscope.recording.JvmFacts;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The analysis as OTLP JSON: an {@code ExportMetricsServiceRequest} in the protobuf JSON mapping
 * that OTLP/HTTP and an OpenTelemetry collector's {@code otlpjsonfile} receiver read ({@code
 * docs/metrics.md}), on one line, as a line of the JSON Lines file that receiver reads. The same
 * metrics as {@link OpenMetricsReport}, named as {@link OpenTelemetryNames} says. As the mapping
 * wants, 64-bit integers (counts, times in nanoseconds since the epoch) are strings, enums are
 * numbers and attributes are lists of key and value.
 */
public final class OtlpJsonReport implements ReportRenderer {

  /** {@code AGGREGATION_TEMPORALITY_CUMULATIVE}: a recording's counts, from its start. */
  static final int CUMULATIVE = 2;

  private final int top;
  private final String toolVersion;

  /**
   * @param top how many holders get series of their own; the rest are one "other" series
   * @param toolVersion vtscope's version, the instrumentation scope's
   */
  public OtlpJsonReport(int top, String toolVersion) {
    this.top = top;
    this.toolVersion = toolVersion;
  }

  @Override
  public void render(Report report, PrintWriter out) {
    if (!(report instanceof Report.Analyzed r)) {
      throw new IllegalArgumentException("OTLP JSON shows an analysis, not a check or a diff");
    }
    Window window = Window.of(r.analysis());
    // one line: the collector's file receiver reads JSON Lines, a request a line
    out.println(
        JsonText.compact(
            request(
                resource(r.analysis()), PinningMetrics.of(r.analysis(), r.advice(), top), window)));
    out.flush();
  }

  /** The recordings' span: where the cumulative counts start, and when they were taken. */
  record Window(long startNanos, long endNanos) {
    static Window of(Analysis analysis) {
      long start = Long.MAX_VALUE;
      long end = 0;
      for (InputFacts input : analysis.inputs()) {
        start = Math.min(start, input.startNanos());
        end = Math.max(end, input.startNanos() + input.durationNanos());
      }
      return start == Long.MAX_VALUE ? new Window(0, 0) : new Window(start, end);
    }
  }

  /**
   * The resource attributes the recordings name: the JVM's process and runtime when every recording
   * is of one JVM, and {@code service.name} as OpenTelemetry's SDKs set it when no service is named
   * ({@code unknown_service:java}), since no recording names its service. A collector's {@code
   * resource} processor can replace it.
   */
  static Map<String, Object> resource(Analysis analysis) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put("service.name", "unknown_service:java");
    JvmFacts one = null;
    for (InputFacts input : analysis.inputs()) {
      JvmFacts jvm = input.jvm();
      if (jvm == null
          || (one != null
              && (one.pid() != jvm.pid() || one.jvmStartNanos() != jvm.jvmStartNanos()))) {
        return attributes; // a JVM unnamed, or several: no one process
      }
      one = jvm;
    }
    if (one == null) {
      return attributes;
    }
    if (one.pid() >= 0) {
      attributes.put("process.pid", one.pid());
    }
    if (one.javaVersion() != null) {
      attributes.put("process.runtime.version", one.javaVersion());
    }
    // the runtime's name (java.runtime.name) is not recorded; the VM's own version string is
    if (one.jvmVersion() != null) {
      attributes.put("process.runtime.description", one.jvmVersion());
    }
    return attributes;
  }

  private ObjectNode request(Map<String, Object> resource, PinningMetrics metrics, Window window) {
    ArrayNode list = JsonText.array();
    list.add(pinned(metrics, window));
    list.add(sum(SUBMIT_FAILED, "", metrics.submitFailures(), window));
    list.add(gauge(CARRIERS_HELD, OpenTelemetryNames.THREADS, metrics.carriersHeldPeak(), window));
    if (metrics.parallelism() > 0) {
      list.add(gauge(PARALLELISM, OpenTelemetryNames.THREADS, metrics.parallelism(), window));
    }
    list.add(findings(metrics, window));

    ObjectNode scope = JsonText.object();
    scope.put("name", OpenTelemetryNames.SCOPE);
    scope.put("version", toolVersion);
    ObjectNode scopeMetrics = JsonText.object();
    scopeMetrics.set("scope", scope);
    scopeMetrics.set("metrics", list);

    ObjectNode resourceMetrics = JsonText.object();
    resourceMetrics.set("resource", JsonText.object().set("attributes", attributes(resource)));
    resourceMetrics.set("scopeMetrics", JsonText.array().add(scopeMetrics));
    ObjectNode request = JsonText.object();
    request.set("resourceMetrics", JsonText.array().add(resourceMetrics));
    return request;
  }

  private static ObjectNode pinned(PinningMetrics metrics, Window window) {
    ArrayNode points = JsonText.array();
    for (SiteSeries s : metrics.sites()) {
      points.add(pinnedPoint(s, window));
    }
    // no holder beyond the limit: no point for them, which would be a series of nothing
    if (metrics.other().events() > 0) {
      points.add(pinnedPoint(metrics.other(), window));
    }
    ObjectNode histogram = JsonText.object();
    histogram.set("dataPoints", points);
    histogram.put("aggregationTemporality", CUMULATIVE);
    ObjectNode metric = metric(PINNED, OpenTelemetryNames.SECONDS);
    metric.set("histogram", histogram);
    return metric;
  }

  /**
   * One holder's pins: count and sum, in one bucket without bounds (a recording's pins are counted
   * per holder, not by duration).
   */
  private static ObjectNode pinnedPoint(SiteSeries s, Window window) {
    ObjectNode point = point(OpenTelemetryNames.attributes(s.holder()), window);
    point.put("count", Long.toString(s.events()));
    point.put("sum", s.nanos() / 1e9);
    point.set("bucketCounts", JsonText.array().add(Long.toString(s.events())));
    point.set("explicitBounds", JsonText.array());
    return point;
  }

  private static ObjectNode sum(String name, String unit, long value, Window window) {
    ObjectNode point = point(Map.of(), window);
    point.put("asInt", Long.toString(value));
    ObjectNode sum = JsonText.object();
    sum.set("dataPoints", JsonText.array().add(point));
    sum.put("aggregationTemporality", CUMULATIVE);
    sum.put("isMonotonic", true);
    ObjectNode metric = metric(name, unit);
    metric.set("sum", sum);
    return metric;
  }

  private static ObjectNode gauge(String name, String unit, long value, Window window) {
    ObjectNode point = point(Map.of(), window);
    point.put("asInt", Long.toString(value));
    ObjectNode metric = metric(name, unit);
    metric.set("gauge", JsonText.object().set("dataPoints", JsonText.array().add(point)));
    return metric;
  }

  private static ObjectNode findings(PinningMetrics metrics, Window window) {
    ArrayNode points = JsonText.array();
    for (Severity severity : Severity.values()) {
      ObjectNode point = point(Map.of(OpenTelemetryNames.SEVERITY, severity.label()), window);
      point.put("asInt", Long.toString(metrics.findings().get(severity)));
      points.add(point);
    }
    ObjectNode metric = metric(FINDINGS, OpenTelemetryNames.FINDINGS_UNIT);
    metric.set("gauge", JsonText.object().set("dataPoints", points));
    return metric;
  }

  private static ObjectNode metric(String name, String unit) {
    ObjectNode metric = JsonText.object();
    metric.put("name", name);
    metric.put("description", OpenTelemetryNames.description(name));
    metric.put("unit", unit);
    return metric;
  }

  /** Attributes as the mapping lists them: strings, and whole numbers as 64-bit strings. */
  private static ArrayNode attributes(Map<String, ?> attributes) {
    ArrayNode list = JsonText.array();
    attributes.forEach(
        (key, value) -> {
          ObjectNode attribute = JsonText.object();
          attribute.put("key", key);
          attribute.set(
              "value",
              value instanceof Long n
                  ? JsonText.object().put("intValue", Long.toString(n))
                  : JsonText.object().put("stringValue", value.toString()));
          list.add(attribute);
        });
    return list;
  }

  private static ObjectNode point(Map<String, String> attributes, Window window) {
    ObjectNode point = JsonText.object();
    point.set("attributes", attributes(attributes));
    point.put("startTimeUnixNano", Long.toString(window.startNanos()));
    point.put("timeUnixNano", Long.toString(window.endNanos()));
    return point;
  }
}
