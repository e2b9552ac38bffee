package dev.vtscope.agent;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An application with OpenTelemetry's SDK, as the agent's tests start it: when a line comes on its
 * standard input (the test sends it once the agent has looked for the global OpenTelemetry and not
 * found it set) it sets its global OpenTelemetry with an in-memory metric reader, as an application
 * does at start, pins a few virtual threads with {@link PinningService}, waits until the pinned
 * histogram of their holder counts them and the findings gauge has a point, at most the seconds
 * given (default 60) or until another line comes (for a test that knows better, as when the agent
 * was told to leave OpenTelemetry alone and the histogram never comes), and prints every point the
 * reader collects, one a line: {@code metric NAME type=TYPE unit=UNIT {key=value,...} count=N
 * sum=S} for a histogram, {@code ... value=V} for the others.
 */
public final class OpenTelemetryApplication {

  private OpenTelemetryApplication() {}

  public static void main(String[] args) throws Exception {
    long deadline =
        System.nanoTime() + 1_000_000_000L * (args.length > 0 ? Integer.parseInt(args[0]) : 60);
    while (!PinningService.toldToGoOn()) {
      Thread.sleep(50);
    }
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    // throws when the global one is already set: by the agent's asking too early, for one
    OpenTelemetrySdk.builder()
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
        .buildAndRegisterGlobal();
    System.out.println("set GlobalOpenTelemetry");
    PinningService.pin();
    Collection<MetricData> metrics = reader.collectAllMetrics();
    while (System.nanoTime() < deadline && !counted(metrics) && !PinningService.toldToGoOn()) {
      Thread.sleep(200);
      metrics = reader.collectAllMetrics();
    }
    List<String> lines = new ArrayList<>();
    for (MetricData metric : metrics) {
      for (PointData point : metric.getData().getPoints()) {
        lines.add(
            "metric "
                + metric.getName()
                + " type="
                + metric.getType()
                + " unit="
                + metric.getUnit()
                + " "
                + attributes(point)
                + " "
                + value(point));
      }
    }
    lines.sort(null);
    lines.forEach(System.out::println);
  }

  /**
   * The holder's pinned histogram counts the pins, and the findings gauge, the agent's last
   * instrument, has points: a collection running while the agent registers its instruments can see
   * the histogram's pins and miss the callbacks registered after it began.
   */
  private static boolean counted(Collection<MetricData> metrics) {
    boolean found =
        metrics.stream()
            .filter(m -> m.getName().equals("vtscope.findings"))
            .anyMatch(m -> !m.getData().getPoints().isEmpty());
    return found
        && metrics.stream()
            .filter(m -> m.getName().equals("jvm.thread.virtual.pinned"))
            .flatMap(m -> m.getHistogramData().getPoints().stream())
            .anyMatch(
                p ->
                    PinningService.holderClass()
                            .equals(
                                p.getAttributes()
                                    .get(AttributeKey.stringKey("vtscope.holder.class")))
                        && PinningService.holderKind()
                            .equals(p.getAttributes().get(AttributeKey.stringKey("vtscope.kind")))
                        && p.getCount() > 0);
  }

  /** {@code {key=value,...}}, by key. */
  private static String attributes(PointData point) {
    return point.getAttributes().asMap().entrySet().stream()
        .map(e -> e.getKey().getKey() + "=" + e.getValue())
        .sorted()
        .collect(Collectors.joining(",", "{", "}"));
  }

  private static String value(PointData point) {
    if (point instanceof HistogramPointData h) {
      return "count=" + h.getCount() + " sum=" + h.getSum();
    } else if (point instanceof LongPointData l) {
      return "value=" + l.getValue();
    }
    return "value=" + point;
  }
}
