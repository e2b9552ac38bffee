package dev.vtscope.metrics;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Analyses of consecutive intervals of one JVM, added up as monitoring systems want counters: never
 * going down, each series keeping its labels for good. A holder gets a series of its own when first
 * seen, up to the limit; holders seen after that are added to the "other" series, so that the
 * number of series, and the memory kept, is bounded whatever the application does. A holder's
 * series never moves into "other" later, which would make both counters jump.
 *
 * <p>Analyses are added on one thread and snapshots taken on others.
 */
public final class MetricsTotals {

  private final int limit;
  private final Map<SiteSeries.Holder, SiteSeries> series = new LinkedHashMap<>();
  private SiteSeries other = new SiteSeries(SiteSeries.Holder.OTHER, 0, 0);
  private long submitFailures;
  private int carriersHeldPeak;
  private int parallelism = -1;
  private Map<Severity, Integer> findings = PinningMetrics.severities(List.of());

  /**
   * @param limit how many holders get a series of their own, at least 1
   */
  public MetricsTotals(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("the limit of series must be at least 1, not " + limit);
    }
    this.limit = limit;
  }

  /**
   * Adds the analysis of one interval: its events to the counters, its peak to the peak; its
   * findings replace the previous interval's.
   */
  public synchronized void add(Analysis interval, Advice advice) {
    for (SiteSeries s : PinningMetrics.byHolder(interval.pinned().sites()).values()) {
      SiteSeries known = series.get(s.holder());
      if (known != null) {
        series.put(s.holder(), known.plus(s.events(), s.nanos()));
      } else if (series.size() < limit) {
        series.put(s.holder(), s);
      } else {
        other = other.plus(s.events(), s.nanos());
      }
    }
    submitFailures += interval.submitFailed().events();
    carriersHeldPeak = Math.max(carriersHeldPeak, interval.carriers().peak());
    int known = interval.scheduler().parallelism().value();
    if (known > 0) {
      parallelism = known;
    }
    findings = PinningMetrics.severities(advice.findings());
  }

  /** An interval without events: nothing to add, and no finding stands any more. */
  public synchronized void addQuiet() {
    findings = PinningMetrics.severities(List.of());
  }

  /** Everything added so far, the series with most pinned time first. */
  public synchronized PinningMetrics snapshot() {
    List<SiteSeries> ranked = new ArrayList<>(series.values());
    ranked.sort(PinningMetrics.RANKING);
    return new PinningMetrics(
        ranked, other, submitFailures, carriersHeldPeak, parallelism, findings);
  }
}
