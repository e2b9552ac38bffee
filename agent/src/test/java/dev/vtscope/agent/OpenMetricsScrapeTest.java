package dev.vtscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vtscope.advice.Severity;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import dev.vtscope.testing.Eventually;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prometheus' own OpenMetrics parser reads what vtscope writes: frame names with quotes,
 * backslashes, line feeds and text that looks like another sample come back from a query as they
 * were, and the scrape reports no error.
 */
class OpenMetricsScrapeTest {

  @TempDir Path dir;

  @Test
  void hostileHolderNamesSurviveAScrape() throws Exception {
    List<String> hostile =
        List.of(
            "a\"b",
            "back\\slash",
            "line\nfeed",
            "trailing\\",
            "} 1\nfake_metric 2",
            "ünïcödé.Клас$内部",
            "# EOF",
            "com.acme.Foo$$Lambda.0x1234");
    List<SiteSeries> sites = new ArrayList<>();
    for (int i = 0; i < hostile.size(); i++) {
      String name = hostile.get(i);
      sites.add(
          new SiteSeries(
              new SiteSeries.Holder(name, name + "m", "native_method", name + ":1"), i + 1, i));
    }
    PinningMetrics metrics =
        new PinningMetrics(
            sites,
            new SiteSeries(SiteSeries.Holder.OTHER, 0, 0),
            0,
            1,
            2,
            Map.of(Severity.INFO, 0, Severity.LOW, 0, Severity.MEDIUM, 0, Severity.HIGH, 1));

    try (MetricsEndpoint served =
            MetricsEndpoint.listen("127.0.0.1", 0, MetricsEndpoint.Limits.DEFAULT)
                .serve(() -> metrics);
        PrometheusServer prometheus =
            PrometheusServer.start(dir, List.of("127.0.0.1:" + served.address().getPort()))) {
      List<String> expected = new ArrayList<>(hostile);
      expected.add("other");
      Set<String> seen =
          Eventually.value(
              "every holder's series in Prometheus",
              () -> {
                Set<String> holders = new HashSet<>();
                for (JsonNode series :
                    prometheus.query("jvm_threads_virtual_pinned_seconds_count")) {
                  JsonNode labels = series.path("metric");
                  String holder = labels.path("holder_class").asText();
                  if (!holder.equals("other")) {
                    assertThat(labels.path("holder_method").asText()).isEqualTo(holder + "m");
                    assertThat(labels.path("artifact").asText()).isEqualTo(holder + ":1");
                  }
                  holders.add(holder);
                }
                return holders;
              },
              holders -> holders.size() >= expected.size());
      assertThat(seen)
          .as("Prometheus log:%n%s", prometheus.log())
          .containsExactlyInAnyOrderElementsOf(expected);
      assertThat(prometheus.query("fake_metric")).isEmpty();
      JsonNode target = prometheus.targets().get(0);
      assertThat(target.path("health").asText()).isEqualTo("up");
      assertThat(target.path("lastError").asText()).isEmpty();
    }
  }
}
