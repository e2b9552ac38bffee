package dev.vtscope.metrics;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Site;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An analysis as metrics: what a monitoring system keeps of it.
 *
 * @param sites pinned time and events per holder, most pinned time first, at most the limit given
 * @param other the holders beyond the limit, added up; zero when there are none
 * @param submitFailures tasks the scheduler rejected
 * @param carriersHeldPeak the most carriers held at once (pinned, and on JDK 21–23 also blocked
 *     entering a monitor), or held when the recording ended by pins that had not ended, when more
 * @param parallelism the scheduler's parallelism, or -1 when unknown
 * @param findings findings by severity, every severity present
 */
public record PinningMetrics(
    List<SiteSeries> sites,
    SiteSeries other,
    long submitFailures,
    int carriersHeldPeak,
    int parallelism,
    Map<Severity, Integer> findings) {

  public PinningMetrics {
    sites = List.copyOf(sites);
    findings = Collections.unmodifiableMap(new EnumMap<>(findings));
  }

  /**
   * The metrics of one analysis: the {@code top} holders by pinned time, and the others as one
   * series.
   */
  public static PinningMetrics of(Analysis analysis, Advice advice, int top) {
    Map<SiteSeries.Holder, SiteSeries> byHolder = byHolder(analysis.pinned().sites());
    List<SiteSeries> ranked = new ArrayList<>(byHolder.values());
    ranked.sort(RANKING);
    List<SiteSeries> shown = ranked.subList(0, Math.min(top, ranked.size()));
    SiteSeries other = new SiteSeries(SiteSeries.Holder.OTHER, 0, 0);
    for (SiteSeries s : ranked.subList(shown.size(), ranked.size())) {
      other = other.plus(s.events(), s.nanos());
    }
    return new PinningMetrics(
        shown,
        other,
        analysis.submitFailed().events(),
        // a pin that had not ended when the recording did has no event: the last thread dump shows
        // its carrier held, and a hang that holds every carrier is the peak an alert must see
        Math.max(analysis.carriers().peak(), analysis.carriersHeldAtEnd()),
        // the parallelism the peak was held against: of several recordings, the same one's
        analysis.carriers().parallelism() > 0
            ? analysis.carriers().parallelism()
            : analysis.scheduler().parallelism().value(),
        severities(advice.findings()));
  }

  /** Most pinned time first; among equals, by holder, so that the order is always the same. */
  static final Comparator<SiteSeries> RANKING =
      Comparator.comparingLong(SiteSeries::nanos)
          .reversed()
          .thenComparing(s -> s.holder().className())
          .thenComparing(s -> s.holder().method())
          .thenComparing(s -> s.holder().kind())
          .thenComparing(s -> s.holder().artifact());

  /** Sites with the same holder, added up, in the order first seen. */
  static Map<SiteSeries.Holder, SiteSeries> byHolder(List<Site> sites) {
    Map<SiteSeries.Holder, SiteSeries> byHolder = new LinkedHashMap<>();
    for (Site site : sites) {
      SiteSeries.Holder holder = SiteSeries.Holder.of(site);
      byHolder.merge(
          holder,
          new SiteSeries(holder, site.durations().count(), site.durations().totalNanos()),
          (a, b) -> a.plus(b.events(), b.nanos()));
    }
    return byHolder;
  }

  static Map<Severity, Integer> severities(List<Finding> findings) {
    Map<Severity, Integer> counts = new EnumMap<>(Severity.class);
    for (Severity s : Severity.values()) {
      counts.put(s, 0);
    }
    findings.forEach(f -> counts.merge(f.severity(), 1, Integer::sum));
    return counts;
  }
}
