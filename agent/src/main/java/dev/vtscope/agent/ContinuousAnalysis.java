package dev.vtscope.agent;

import dev.vtscope.advice.Advisor;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.IntervalStream;
import dev.vtscope.metrics.MetricsTotals;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.recording.InProcessStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * This JVM's events, streamed with vtscope's settings, analysed every interval by the same code as
 * {@code vtscope analyze} and advised by the same rules, and added up as counters. Each interval's
 * events are dropped once analysed: memory is one interval's collector and the bounded series.
 */
final class ContinuousAnalysis implements AutoCloseable {

  private final IntervalStream intervals;
  private final MetricsTotals totals;
  private final InProcessStream stream;
  private final ScheduledExecutorService clock;
  private final PrintStream log;
  private final List<Consumer<PinningMetrics>> listeners = new CopyOnWriteArrayList<>();
  private boolean failureSaid;

  private ContinuousAnalysis(AgentOptions options, PrintStream log) {
    this.log = log;
    this.intervals =
        IntervalStream.intervalsOnly(
            // In the service's own JVM its class path is known from the start: attribution need
            // not wait for the recorded system properties, which may come after the first pins.
            new AnalysisOptions(GroupBy.CULPRIT, ownClassPath(), java.util.List.of()),
            "this JVM",
            System.currentTimeMillis() * 1_000_000);
    this.totals = new MetricsTotals(options.series());
    this.stream = InProcessStream.open(options.pinnedThreshold(), intervals);
    this.clock =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "vtscope-agent-analysis");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts streaming and analysing.
   *
   * @throws IllegalStateException when JFR cannot stream in this JVM
   */
  static ContinuousAnalysis start(AgentOptions options, PrintStream log) {
    ContinuousAnalysis analysis = new ContinuousAnalysis(options, log);
    analysis.stream.start();
    long every = options.interval().toMillis();
    analysis.clock.scheduleWithFixedDelay(
        analysis::endInterval, every, every, TimeUnit.MILLISECONDS);
    return analysis;
  }

  /** This JVM's class path, as its entries. */
  private static java.util.List<java.nio.file.Path> ownClassPath() {
    String classPath = System.getProperty("java.class.path", "");
    java.util.List<java.nio.file.Path> entries = new java.util.ArrayList<>();
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      if (!entry.isBlank()) {
        try {
          entries.add(java.nio.file.Path.of(entry));
        } catch (java.nio.file.InvalidPathException e) {
          // an entry the JVM could not have used either
        }
      }
    }
    return entries;
  }

  /** Analyses the interval that ends now and adds it to the totals. */
  void endInterval() {
    try {
      IntervalStream.Tick tick = intervals.next(System.currentTimeMillis() * 1_000_000);
      if (tick.quiet()) {
        totals.addQuiet();
      } else {
        totals.add(tick.interval(), Advisor.standard().advise(tick.interval()));
      }
      if (!listeners.isEmpty()) {
        PinningMetrics now = totals.snapshot();
        listeners.forEach(l -> l.accept(now));
      }
    } catch (RuntimeException | LinkageError e) {
      // An analysis that fails must not stop the next ones, nor fill the service's log.
      if (!failureSaid) {
        failureSaid = true;
        log.println("vtscope-agent: an interval could not be analysed: " + e);
      }
    }
  }

  /**
   * Has {@code listener} told the counters after each interval, on the analysis thread, and once
   * now.
   */
  void onInterval(Consumer<PinningMetrics> listener) {
    listeners.add(listener);
    listener.accept(totals.snapshot());
  }

  /** The counters so far. */
  PinningMetrics metrics() {
    return totals.snapshot();
  }

  @Override
  public void close() {
    clock.shutdownNow();
    stream.close();
  }
}
