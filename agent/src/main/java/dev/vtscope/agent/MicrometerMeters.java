package dev.vtscope.agent;

import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Message;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import dev.vtscope.report.Wording;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tag;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The agent's counters as meters of the application's own Micrometer ({@code
 * Metrics.globalRegistry}), beside the OpenMetrics endpoint: the same names as there, in
 * Micrometer's dotted form, and the same labels as tags. The meters read the counters of the last
 * interval; a holder's timer is registered when the holder first has a series.
 *
 * <p>This is the only class that uses Micrometer, and it is loaded only once Micrometer is found on
 * the application's class path ({@link #available()}): without Micrometer the agent runs as before.
 */
final class MicrometerMeters implements Consumer<PinningMetrics> {

  static final String PINNED = "jvm.threads.virtual.pinned";
  static final String SUBMIT_FAILED = "jvm.threads.virtual.submit.failed";
  static final String PARALLELISM = "jvm.threads.virtual.parallelism";
  static final String CARRIERS_HELD = "vtscope.carriers.held.peak";
  static final String FINDINGS = "vtscope.findings";

  private static final Wording WORDING = Wording.standard();

  private final MeterRegistry registry;
  private final PrintStream log;
  private final Set<SiteSeries.Holder> registered = new HashSet<>();
  private volatile Map<SiteSeries.Holder, SiteSeries> series = Map.of();
  private volatile PinningMetrics latest;
  private boolean parallelismRegistered;
  private boolean failureSaid;

  private MicrometerMeters(MeterRegistry registry, PinningMetrics now, PrintStream log) {
    this.registry = registry;
    this.latest = now;
    this.log = log;
  }

  /**
   * The meters, registered with Micrometer's global registry: the fixed ones now, a holder's timer
   * once the holder is seen ({@code now} are the counters so far). Returned as a plain listener so
   * that the caller names no Micrometer type.
   */
  static Consumer<PinningMetrics> registerGlobally(PinningMetrics now, PrintStream log) {
    MicrometerMeters meters = new MicrometerMeters(Metrics.globalRegistry, now, log);
    meters.registerFixed();
    return meters;
  }

  private void registerFixed() {
    register(
        () ->
            FunctionCounter.builder(SUBMIT_FAILED, this, m -> m.latest().submitFailures())
                .description(help("metrics.submit-failed"))
                .register(registry));
    register(
        () ->
            Gauge.builder(CARRIERS_HELD, this, m -> m.latest().carriersHeldPeak())
                .description(help("metrics.carriers-held-peak"))
                .register(registry));
    for (Severity severity : Severity.values()) {
      register(
          () ->
              Gauge.builder(FINDINGS, this, m -> m.latest().findings().getOrDefault(severity, 0))
                  .description(help("metrics.findings"))
                  .tag("severity", severity.name().toLowerCase(Locale.ROOT))
                  .register(registry));
    }
  }

  /** Takes the counters of the interval just ended, and registers the holders new in it. */
  @Override
  public synchronized void accept(PinningMetrics metrics) {
    Map<SiteSeries.Holder, SiteSeries> byHolder = new HashMap<>();
    for (SiteSeries s : metrics.sites()) {
      byHolder.put(s.holder(), s);
    }
    byHolder.put(metrics.other().holder(), metrics.other());
    series = byHolder;
    latest = metrics;
    for (SiteSeries.Holder holder : byHolder.keySet()) {
      if (registered.add(holder)) {
        registerPinned(holder);
      }
    }
    if (!parallelismRegistered && metrics.parallelism() > 0) {
      parallelismRegistered = true;
      register(
          () ->
              Gauge.builder(PARALLELISM, this, m -> m.latest().parallelism())
                  .description(help("metrics.parallelism"))
                  .register(registry));
    }
  }

  private void registerPinned(SiteSeries.Holder holder) {
    register(
        () ->
            FunctionTimer.builder(
                    PINNED,
                    this,
                    m -> m.series(holder).events(),
                    m -> m.series(holder).nanos(),
                    TimeUnit.NANOSECONDS)
                .description(help("metrics.pinned"))
                .tags(
                    List.of(
                        Tag.of("holder_class", holder.className()),
                        Tag.of("holder_method", holder.method()),
                        Tag.of("kind", holder.kind()),
                        Tag.of("artifact", holder.artifact())))
                .register(registry));
  }

  private PinningMetrics latest() {
    return latest;
  }

  private SiteSeries series(SiteSeries.Holder holder) {
    return series.getOrDefault(holder, new SiteSeries(holder, 0, 0));
  }

  /**
   * Registers one meter; a registry that refuses it (a meter of the same name with other tags, from
   * another binder) costs that meter only, said once.
   */
  private void register(Runnable registration) {
    try {
      registration.run();
    } catch (RuntimeException e) {
      if (!failureSaid) {
        failureSaid = true;
        log.println("vtscope-agent: Micrometer refused a meter: " + e);
      }
    }
  }

  private static String help(String key) {
    return WORDING.format(Message.of(key));
  }
}
