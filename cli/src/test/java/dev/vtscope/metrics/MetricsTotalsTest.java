package dev.vtscope.metrics;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.testing.AnalysisBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MetricsTotalsTest {

  private static Analysis interval(AnalysisBuilder.SiteBuilder... sites) {
    AnalysisBuilder builder = AnalysisBuilder.jdk(21);
    for (AnalysisBuilder.SiteBuilder s : sites) {
      builder.pinned(s);
    }
    return builder.build();
  }

  private static void add(MetricsTotals totals, Analysis interval) {
    Advice advice = Advisor.standard().advise(interval);
    totals.add(interval, advice);
  }

  @Test
  void countersAddUpOverIntervals() {
    MetricsTotals totals = new MetricsTotals(10);
    add(totals, interval(site("com.acme.A", "a").pins(2, Duration.ofMillis(10))));
    add(totals, interval(site("com.acme.A", "a").pins(3, Duration.ofMillis(20))));

    PinningMetrics m = totals.snapshot();
    assertThat(m.sites()).hasSize(1);
    assertThat(m.sites().get(0).events()).isEqualTo(5);
    assertThat(m.sites().get(0).nanos()).isEqualTo(Duration.ofMillis(80).toNanos());
  }

  @Test
  void holdersAfterTheLimitGoToOtherAndAHolderNeverMovesThere() {
    MetricsTotals totals = new MetricsTotals(1);
    add(totals, interval(site("com.acme.Small", "s").pins(1, Duration.ofMillis(1))));
    add(totals, interval(site("com.acme.Big", "b").pins(100, Duration.ofMillis(50))));
    add(totals, interval(site("com.acme.Small", "s").pins(1, Duration.ofMillis(1))));

    PinningMetrics m = totals.snapshot();
    assertThat(m.sites())
        .extracting(s -> s.holder().className() + " " + s.events())
        .containsExactly("com.acme.Small 2");
    assertThat(m.other().events()).isEqualTo(100);
  }

  @Test
  void findingsAreThoseOfTheLastIntervalAndAQuietOneHasNone() {
    MetricsTotals totals = new MetricsTotals(5);
    add(totals, interval(site("com.acme.A", "a").pins(1000, Duration.ofMillis(30))));
    assertThat(totals.snapshot().findings().values().stream().mapToInt(Integer::intValue).sum())
        .isPositive();

    totals.addQuiet();

    assertThat(totals.snapshot().findings()).containsOnlyKeys(Severity.values());
    assertThat(totals.snapshot().findings().values()).containsOnly(0);
    assertThat(totals.snapshot().sites().get(0).events()).isEqualTo(1000);
  }

  @Test
  void aLimitBelowOneIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MetricsTotals(0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
