package dev.vtscope.report;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.util.JsonFormat;
import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OTLP JSON, read back by protobuf's own JSON parser into OpenTelemetry's generated {@code
 * ExportMetricsServiceRequest}: a field the message does not have, a 64-bit number the mapping does
 * not accept or a value of the wrong type fails the parse. What it reads is then held to the
 * analysis.
 */
class OtlpJsonReportTest {

  static List<Path> samples() {
    return TestRecordings.samples();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void everySampleParsesAsAnExportRequestAndAddsUpToTheAnalysis(Path sample) throws Exception {
    Analysis analysis = Reports.analyze(sample.getFileName().toString(), sample, GroupBy.CULPRIT);
    Advice advice = Advisor.standard().advise(analysis);
    ExportMetricsServiceRequest request =
        parse(render(new OtlpJsonReport(2, "9.9"), analysis, advice));
    ScopeMetrics scope = scope(request);

    JvmFacts jvm = analysis.inputs().getFirst().jvm();
    List<KeyValue> resource = request.getResourceMetrics(0).getResource().getAttributesList();
    assertThat(attributes(resource))
        .containsEntry("service.name", "unknown_service:java")
        .containsEntry("process.runtime.version", jvm.javaVersion())
        .containsEntry("process.runtime.description", jvm.jvmVersion());
    assertThat(resource)
        .filteredOn(kv -> kv.getKey().equals("process.pid"))
        .singleElement()
        .extracting(kv -> kv.getValue().getIntValue())
        .isEqualTo(jvm.pid());

    assertThat(scope.getScope().getName()).isEqualTo("dev.vtscope");
    assertThat(scope.getScope().getVersion()).isEqualTo("9.9");
    Metric pinned = metric(scope, "jvm.thread.virtual.pinned");
    assertThat(pinned.getUnit()).isEqualTo("s");
    assertThat(pinned.getDescription()).isNotBlank();
    assertThat(pinned.getHistogram().getAggregationTemporality())
        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    List<HistogramDataPoint> points = pinned.getHistogram().getDataPointsList();
    assertThat(points).as("two holders and other at most").hasSizeLessThanOrEqualTo(3);
    long events = 0;
    double seconds = 0;
    for (HistogramDataPoint p : points) {
      events += p.getCount();
      seconds += p.getSum();
      assertThat(p.getBucketCountsList()).containsExactly(p.getCount());
      assertThat(attributes(p.getAttributesList()).keySet())
          .containsExactly(
              "vtscope.holder.class", "vtscope.holder.method", "vtscope.kind", "vtscope.artifact");
      long start = analysis.inputs().getFirst().startNanos();
      assertThat(p.getStartTimeUnixNano()).isEqualTo(start);
      assertThat(p.getTimeUnixNano())
          .isEqualTo(start + analysis.inputs().getFirst().durationNanos());
    }
    assertThat(events).isEqualTo(analysis.pinned().events());
    assertThat(seconds).isCloseTo(analysis.pinned().totalNanos() / 1e9, within(1e-6));
    // holders beyond the two: one other point, which has pins; none beyond: no other point
    List<HistogramDataPoint> other =
        points.stream()
            .filter(p -> attributes(p.getAttributesList()).get("vtscope.kind").equals("other"))
            .toList();
    PinningMetrics metrics = PinningMetrics.of(analysis, advice, 2);
    if (metrics.other().events() > 0) {
      assertThat(other).singleElement().isEqualTo(points.getLast());
      assertThat(other.getFirst().getCount()).isEqualTo(metrics.other().events());
    } else {
      assertThat(other).isEmpty();
    }

    Metric failed = metric(scope, "jvm.thread.virtual.submit_failed");
    assertThat(failed.getSum().getIsMonotonic()).isTrue();
    assertThat(failed.getSum().getDataPoints(0).getAsInt())
        .isEqualTo(analysis.submitFailed().events());
    int heldAtEnd = analysis.carriersHeldAtEnd();
    assertThat(metric(scope, "vtscope.carriers.held.peak").getGauge().getDataPoints(0).getAsInt())
        .isEqualTo(Math.max(analysis.carriers().peak(), heldAtEnd));
    long high = advice.findings().stream().filter(f -> f.severity() == Severity.HIGH).count();
    assertThat(metric(scope, "vtscope.findings").getGauge().getDataPointsList())
        .filteredOn(p -> attributes(p.getAttributesList()).get("vtscope.severity").equals("high"))
        .singleElement()
        .extracting(NumberDataPoint::getAsInt)
        .isEqualTo(high);
  }

  @Test
  void holdersBeyondTheLimitAreAddedUpAsOther() throws Exception {
    Analysis analysis =
        AnalysisBuilder.jdk(21)
            .pinned(site("com.acme.A", "a").pins(3, Duration.ofMillis(30)))
            .pinned(site("com.acme.B", "b").pins(2, Duration.ofMillis(20)))
            .pinned(site("com.acme.C", "c").pins(1, Duration.ofMillis(10)).library("org.c:c", "1"))
            .build();
    String text = render(new OtlpJsonReport(1, "1"), analysis, Advisor.standard().advise(analysis));
    List<HistogramDataPoint> points =
        metric(scope(parse(text)), "jvm.thread.virtual.pinned").getHistogram().getDataPointsList();

    assertThat(points)
        .extracting(
            p ->
                attributes(p.getAttributesList()).get("vtscope.holder.class")
                    + "="
                    + p.getCount()
                    + "/"
                    + p.getSum())
        .containsExactly("com.acme.A=3/0.09", "other=3/0.05");
    // 64-bit integers are strings, as the protobuf JSON mapping writes them
    assertThat(text).contains("\"count\":\"3\"").contains("\"asInt\":\"");
    // one request a line, as the collector's file receiver reads JSON Lines
    assertThat(text.lines()).hasSize(1);
  }

  /**
   * A hang holds every carrier with pins that never end, so no pinned event is written: the peak is
   * the carriers the recording's last thread dumps show held, which an alert on it must see.
   */
  @Test
  void carriersHeldWhenTheRecordingEndedArePartOfThePeak() throws Exception {
    Analysis analysis =
        AnalysisBuilder.jdk(21)
            .parallelism(2)
            .carriersAtEnd(new CarriersAtEnd(0, 4, 4, false, List.of(), 4, 0, 0, 0, 0))
            .build();
    String text = render(new OtlpJsonReport(2, "1"), analysis, Advisor.standard().advise(analysis));
    ScopeMetrics scope = scope(parse(text));

    assertThat(analysis.carriers().peak()).isZero();
    assertThat(metric(scope, "vtscope.carriers.held.peak").getGauge().getDataPoints(0).getAsInt())
        .isEqualTo(4);
    assertThat(metric(scope, "jvm.thread.virtual.pinned").getHistogram().getDataPointsList())
        .as("no pin, no holder: no point")
        .isEmpty();
  }

  @Test
  void recordingsOfSeveralJvmsNameNoProcess() throws Exception {
    List<Path> two = samples().stream().filter(p -> p.toString().contains("jdk2")).toList();
    Path a = two.stream().filter(p -> p.toString().contains("jdk21")).findFirst().orElseThrow();
    Path b = two.stream().filter(p -> p.toString().contains("jdk25")).findFirst().orElseThrow();
    Analysis both =
        Reports.analyze(
            List.of(
                new RecordingInput("a.jfr", List.of(a), false),
                new RecordingInput("b.jfr", List.of(b), false)),
            GroupBy.CULPRIT,
            ReaderKind.VTSCOPE);
    String text = render(new OtlpJsonReport(2, "1"), both, Advisor.standard().advise(both));

    assertThat(attributes(parse(text).getResourceMetrics(0).getResource().getAttributesList()))
        .containsExactly(Map.entry("service.name", "unknown_service:java"));
  }

  @Test
  void hostileNamesComeBackAsTheyWere() throws Exception {
    AnalysisBuilder builder = AnalysisBuilder.jdk(21);
    List<String> names =
        List.of(
            "a\"b",
            "back\\slash",
            "line\nfeed",
            "trailing\\",
            "\u001b[31mred",
            "\u202eright-to-left",
            "ünïcödé.Клас$内部",
            "\"}]},{\"name\":\"fake\"");
    for (String name : names) {
      builder.pinned(site(name, name + "m").pins(1, Duration.ofMillis(10)));
    }
    Analysis analysis = builder.build();
    String text =
        render(
            new OtlpJsonReport(names.size(), "1"), analysis, Advisor.standard().advise(analysis));
    assertThat(text.lines()).as("a line feed in a name is escaped").hasSize(1);
    List<String> classes =
        metric(scope(parse(text)), "jvm.thread.virtual.pinned")
            .getHistogram()
            .getDataPointsList()
            .stream()
            .map(p -> attributes(p.getAttributesList()).get("vtscope.holder.class"))
            .toList();
    assertThat(classes).containsAll(names);
  }

  @Test
  void aCheckOrADiffHasNoOtlpForm() {
    assertThatThrownBy(
            () ->
                new OtlpJsonReport(10, "1")
                    .render(new Report.Compared(null), new PrintWriter(new StringWriter())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Parses strictly: an unknown field is an error, as it is to a collector's receiver. */
  static ExportMetricsServiceRequest parse(String text) throws Exception {
    ExportMetricsServiceRequest.Builder request = ExportMetricsServiceRequest.newBuilder();
    JsonFormat.parser().merge(text, request);
    return request.build();
  }

  private static ScopeMetrics scope(ExportMetricsServiceRequest request) {
    assertThat(request.getResourceMetricsList()).hasSize(1);
    assertThat(request.getResourceMetrics(0).getScopeMetricsList()).hasSize(1);
    return request.getResourceMetrics(0).getScopeMetrics(0);
  }

  private static Metric metric(ScopeMetrics scope, String name) {
    return scope.getMetricsList().stream()
        .filter(m -> m.getName().equals(name))
        .reduce(
            (a, b) -> {
              throw new AssertionError("two metrics named " + name);
            })
        .orElseThrow(() -> new AssertionError("no metric " + name));
  }

  private static Map<String, String> attributes(List<KeyValue> list) {
    Map<String, String> attributes = new LinkedHashMap<>();
    for (KeyValue kv : list) {
      attributes.put(kv.getKey(), kv.getValue().getStringValue());
    }
    return attributes;
  }

  private static String render(OtlpJsonReport report, Analysis analysis, Advice advice) {
    StringWriter out = new StringWriter();
    report.render(analysis, advice, new PrintWriter(out));
    return out.toString();
  }

  private static org.assertj.core.data.Offset<Double> within(double offset) {
    return org.assertj.core.data.Offset.offset(offset);
  }
}
