package dev.vtscope.agent;

import dev.vtscope.advice.Severity;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import dev.vtscope.report.OpenTelemetryNames;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.Meter;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The agent's counters as instruments of the application's own OpenTelemetry ({@code
 * GlobalOpenTelemetry}), named as {@link OpenTelemetryNames} says, the names {@code analyze
 * --format otlp-json} writes. They are made once the application has set its global OpenTelemetry,
 * looked at after each interval: the agent never asks for it before, since asking ({@code
 * GlobalOpenTelemetry.get()}) would set a no-op one and make the application's own {@code set}
 * fail.
 *
 * <p>OpenTelemetry has no histogram read through a callback, so the pinned histogram is recorded
 * after each interval: each holder's new pins, each the interval's mean pinned time of that holder
 * (the agent keeps counts and sums, not each pin), the last one taking the rest, so that the count
 * and the sum are the counters' own. The gauges and the submit failures are read through callbacks.
 *
 * <p>This is the only class that uses OpenTelemetry, loaded only once its API is found on the
 * application's class path: without it the agent runs as before.
 */
final class OpenTelemetryMeters implements Consumer<PinningMetrics> {

  /**
   * Bucket bounds in seconds, 5 ms to 10 s, those the semantic conventions advise for HTTP
   * durations: the SDK's default bounds (0 to 10,000) are made for milliseconds.
   */
  private static final List<Double> BOUNDARIES =
      List.of(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0);

  private final PrintStream log;
  private final Map<SiteSeries.Holder, SiteSeries> recorded = new HashMap<>();
  private final Map<SiteSeries.Holder, Attributes> attributes = new HashMap<>();
  private volatile PinningMetrics latest;
  private DoubleHistogram pinned;
  private boolean failed;
  private boolean waitingSaid;

  private OpenTelemetryMeters(PrintStream log) {
    this.log = log;
  }

  /**
   * The instruments, made with the application's global OpenTelemetry once it is set. Returned as a
   * plain listener so that the caller names no OpenTelemetry type.
   */
  static Consumer<PinningMetrics> onceSet(PrintStream log) {
    return new OpenTelemetryMeters(log);
  }

  /** Makes the instruments once the application's OpenTelemetry is set, then records the pins. */
  @Override
  public synchronized void accept(PinningMetrics metrics) {
    latest = metrics;
    if (failed) {
      return;
    }
    try {
      if (pinned == null) {
        if (!GlobalOpenTelemetry.isSet()) {
          if (!waitingSaid) {
            waitingSaid = true;
            log.println(
                "vtscope-agent: OpenTelemetry found; registering once the application sets"
                    + " GlobalOpenTelemetry");
          }
          return;
        }
        register(GlobalOpenTelemetry.getMeter(OpenTelemetryNames.SCOPE));
        log.println("vtscope-agent: registered with OpenTelemetry's global meter provider");
      }
      record(metrics);
    } catch (RuntimeException | LinkageError e) {
      // an API without isSet (older than the one compiled against), or an SDK that refuses
      failed = true;
      log.println("vtscope-agent: cannot register with OpenTelemetry (" + e + "); serving only");
    }
  }

  private void register(Meter meter) {
    pinned =
        meter
            .histogramBuilder(OpenTelemetryNames.PINNED)
            .setDescription(OpenTelemetryNames.description(OpenTelemetryNames.PINNED))
            .setUnit(OpenTelemetryNames.SECONDS)
            .setExplicitBucketBoundariesAdvice(BOUNDARIES)
            .build();
    meter
        .counterBuilder(OpenTelemetryNames.SUBMIT_FAILED)
        .setDescription(OpenTelemetryNames.description(OpenTelemetryNames.SUBMIT_FAILED))
        .buildWithCallback(m -> m.record(latest.submitFailures()));
    meter
        .gaugeBuilder(OpenTelemetryNames.CARRIERS_HELD)
        .setDescription(OpenTelemetryNames.description(OpenTelemetryNames.CARRIERS_HELD))
        .setUnit(OpenTelemetryNames.THREADS)
        .ofLongs()
        .buildWithCallback(m -> m.record(latest.carriersHeldPeak()));
    meter
        .gaugeBuilder(OpenTelemetryNames.PARALLELISM)
        .setDescription(OpenTelemetryNames.description(OpenTelemetryNames.PARALLELISM))
        .setUnit(OpenTelemetryNames.THREADS)
        .ofLongs()
        .buildWithCallback(
            m -> {
              // no point until the scheduler's parallelism is known
              if (latest.parallelism() > 0) {
                m.record(latest.parallelism());
              }
            });
    Map<Severity, Attributes> bySeverity = new EnumMap<>(Severity.class);
    for (Severity severity : Severity.values()) {
      bySeverity.put(
          severity,
          Attributes.of(AttributeKey.stringKey(OpenTelemetryNames.SEVERITY), severity.label()));
    }
    meter
        .gaugeBuilder(OpenTelemetryNames.FINDINGS)
        .setDescription(OpenTelemetryNames.description(OpenTelemetryNames.FINDINGS))
        .setUnit(OpenTelemetryNames.FINDINGS_UNIT)
        .ofLongs()
        .buildWithCallback(
            m -> bySeverity.forEach((s, a) -> m.record(latest.findings().get(s), a)));
  }

  /** Records each holder's pins since the last interval recorded. */
  private void record(PinningMetrics metrics) {
    for (SiteSeries s : metrics.sites()) {
      recordNew(s);
    }
    recordNew(metrics.other());
  }

  private void recordNew(SiteSeries now) {
    SiteSeries before = recorded.getOrDefault(now.holder(), new SiteSeries(now.holder(), 0, 0));
    long events = now.events() - before.events();
    long nanos = now.nanos() - before.nanos();
    if (events <= 0) {
      return;
    }
    Attributes a = attributes.computeIfAbsent(now.holder(), OpenTelemetryMeters::attributesOf);
    long mean = nanos / events;
    for (long i = 1; i < events; i++) {
      pinned.record(mean / 1e9, a);
    }
    pinned.record((nanos - mean * (events - 1)) / 1e9, a);
    recorded.put(now.holder(), now);
  }

  private static Attributes attributesOf(SiteSeries.Holder holder) {
    AttributesBuilder builder = Attributes.builder();
    OpenTelemetryNames.attributes(holder).forEach(builder::put);
    return builder.build();
  }
}
