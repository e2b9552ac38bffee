package dev.vtscope.report;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OpenMetrics text, read back with a strict reading of the format's grammar (every line a TYPE,
 * UNIT, HELP or sample line of a declared family, label values escaped, {@code # EOF} last). The
 * agent's tests have a real Prometheus scrape it.
 */
class OpenMetricsReportTest {

  static List<Path> samples() {
    return TestRecordings.samples();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void everySampleIsWellFormedAndAddsUpToTheAnalysis(Path sample) {
    Analysis analysis = Reports.analyze(sample.getFileName().toString(), sample, GroupBy.CULPRIT);
    Advice advice = Advisor.standard().advise(analysis);
    List<Sample> samples = parse(render(new OpenMetricsReport(2), analysis, advice));

    long events = 0;
    long nanos = 0;
    int series = 0;
    for (Sample s : samples) {
      if (s.name().equals("jvm_threads_virtual_pinned_seconds_count")) {
        events += Long.parseLong(s.value());
        series++;
      } else if (s.name().equals("jvm_threads_virtual_pinned_seconds_sum")) {
        nanos += new java.math.BigDecimal(s.value()).movePointRight(9).longValueExact();
      }
    }
    assertThat(events).isEqualTo(analysis.pinned().events());
    assertThat(nanos).isEqualTo(analysis.pinned().totalNanos());
    assertThat(series).as("two holders and other at most").isBetween(1, 3);
    assertThat(value(samples, "jvm_threads_virtual_submit_failed_total"))
        .isEqualTo(String.valueOf(analysis.submitFailed().events()));
    // the pins that had not ended when the recording did hold carriers too
    int heldAtEnd = analysis.carriersHeldAtEnd();
    assertThat(value(samples, "vtscope_carriers_held_peak"))
        .isEqualTo(String.valueOf(Math.max(analysis.carriers().peak(), heldAtEnd)));
    long high = advice.findings().stream().filter(f -> f.severity() == Severity.HIGH).count();
    assertThat(
            samples.stream()
                .filter(s -> s.name().equals("vtscope_findings"))
                .filter(s -> s.labels().get("severity").equals("high"))
                .findFirst()
                .orElseThrow()
                .value())
        .isEqualTo(String.valueOf(high));
  }

  @Test
  void holdersBeyondTheLimitAreAddedUpAsOther() {
    Analysis analysis =
        AnalysisBuilder.jdk(21)
            .pinned(site("com.acme.A", "a").pins(3, Duration.ofMillis(30)))
            .pinned(site("com.acme.B", "b").pins(2, Duration.ofMillis(20)))
            .pinned(site("com.acme.C", "c").pins(1, Duration.ofMillis(10)).library("org.c:c", "1"))
            .build();
    PinningMetrics metrics =
        PinningMetrics.of(analysis, Advisor.standard().advise(analysis), /* top= */ 1);

    assertThat(metrics.sites())
        .extracting(s -> s.holder().className())
        .containsExactly("com.acme.A");
    assertThat(metrics.other().events()).isEqualTo(3);
    assertThat(metrics.other().nanos()).isEqualTo(Duration.ofMillis(2 * 20 + 10).toNanos());
    List<Sample> samples = parse(render(metrics));
    assertThat(samples)
        .filteredOn(s -> s.name().equals("jvm_threads_virtual_pinned_seconds_sum"))
        .extracting(s -> s.labels().get("holder_class") + "=" + s.value())
        .containsExactly("com.acme.A=0.09", "other=0.05");
  }

  @Test
  void hostileNamesAreEscapedAndReadBackAsTheyWere() {
    List<String> hostile =
        List.of(
            "a\"b",
            "back\\slash",
            "line\nfeed",
            "trailing\\",
            "} 1\nfake_metric 2",
            "ünïcödé.Клас$内部",
            "",
            "# EOF");
    List<SiteSeries> sites = new ArrayList<>();
    for (int i = 0; i < hostile.size(); i++) {
      String name = hostile.get(i);
      sites.add(
          new SiteSeries(
              new SiteSeries.Holder(name, name + "m", "synchronized_method", name + ":1"),
              i + 1,
              1_000_000L * (i + 1)));
    }
    PinningMetrics metrics =
        new PinningMetrics(
            sites,
            new SiteSeries(SiteSeries.Holder.OTHER, 0, 0),
            0,
            0,
            -1,
            Map.of(Severity.INFO, 0, Severity.LOW, 0, Severity.MEDIUM, 0, Severity.HIGH, 0));

    List<Sample> samples = parse(render(metrics));

    List<String> classes =
        samples.stream()
            .filter(s -> s.name().equals("jvm_threads_virtual_pinned_seconds_count"))
            .map(s -> s.labels().get("holder_class"))
            .toList();
    List<String> expected = new ArrayList<>(hostile);
    expected.add("other");
    assertThat(classes).containsExactlyElementsOf(expected);
    assertThat(samples)
        .filteredOn(s -> s.name().equals("jvm_threads_virtual_pinned_seconds_count"))
        .allSatisfy(
            s -> {
              if (!s.labels().get("holder_class").equals("other")) {
                assertThat(s.labels().get("holder_method"))
                    .isEqualTo(s.labels().get("holder_class") + "m");
                assertThat(s.labels().get("artifact"))
                    .isEqualTo(s.labels().get("holder_class") + ":1");
              }
            });
    assertThat(samples).noneMatch(s -> s.name().equals("fake_metric"));
    assertThat(samples).noneMatch(s -> s.name().equals(OpenMetricsReport.PARALLELISM));
  }

  @Test
  void aCheckOrADiffHasNoOpenMetricsForm() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new OpenMetricsReport(10)
                    .render(new Report.Compared(null), new PrintWriter(new StringWriter())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String render(OpenMetricsReport report, Analysis analysis, Advice advice) {
    StringWriter out = new StringWriter();
    report.render(analysis, advice, new PrintWriter(out));
    return out.toString();
  }

  private static String render(PinningMetrics metrics) {
    StringWriter out = new StringWriter();
    new OpenMetricsReport(10).render(metrics, new PrintWriter(out));
    return out.toString();
  }

  private static String value(List<Sample> samples, String name) {
    return samples.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().value();
  }

  record Sample(String name, Map<String, String> labels, String value) {}

  private static final Pattern META =
      Pattern.compile("# (TYPE|UNIT|HELP) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)");
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");
  private static final Map<String, List<String>> SUFFIXES =
      Map.of(
          "summary", List.of("_count", "_sum"),
          "counter", List.of("_total"),
          "gauge", List.of(""));

  /** Reads OpenMetrics text strictly; fails the test on anything the format does not allow. */
  static List<Sample> parse(String text) {
    assertThat(text).endsWith("# EOF\n");
    Map<String, String> types = new HashMap<>();
    Map<String, String> helps = new HashMap<>();
    List<Sample> samples = new ArrayList<>();
    List<String> lines = text.lines().toList();
    for (int n = 0; n < lines.size() - 1; n++) {
      String line = lines.get(n);
      if (line.startsWith("#")) {
        Matcher m = META.matcher(line);
        assertThat(m.matches()).as("line %d: %s", n + 1, line).isTrue();
        switch (m.group(1)) {
          case "TYPE" -> assertThat(types.put(m.group(2), m.group(3))).isNull();
          case "HELP" -> helps.put(m.group(2), m.group(3));
          default -> assertThat(m.group(2)).endsWith("_" + m.group(3));
        }
        continue;
      }
      samples.add(sample(line, n + 1, types));
    }
    assertThat(helps.keySet()).isEqualTo(types.keySet());
    return samples;
  }

  private static Sample sample(String line, int n, Map<String, String> types) {
    Matcher name = NAME.matcher(line);
    assertThat(name.lookingAt()).as("line %d: %s", n, line).isTrue();
    String metric = name.group();
    assertThat(
            types.entrySet().stream()
                .anyMatch(
                    t ->
                        SUFFIXES.get(t.getValue()).stream()
                            .anyMatch(suffix -> metric.equals(t.getKey() + suffix))))
        .as("line %d: %s belongs to a declared family", n, metric)
        .isTrue();
    int i = name.end();
    Map<String, String> labels = new LinkedHashMap<>();
    if (line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        Matcher label = NAME.matcher(line).region(i, line.length());
        assertThat(label.lookingAt()).as("line %d: a label name at %d", n, i).isTrue();
        i = label.end();
        assertThat(line.substring(i, i + 2)).isEqualTo("=\"");
        i += 2;
        StringBuilder value = new StringBuilder();
        while (line.charAt(i) != '"') {
          char c = line.charAt(i++);
          if (c == '\\') {
            char e = line.charAt(i++);
            value.append(
                switch (e) {
                  case '\\' -> '\\';
                  case '"' -> '"';
                  case 'n' -> '\n';
                  default -> throw new AssertionError("line " + n + ": escape \\" + e);
                });
          } else {
            value.append(c);
          }
        }
        i++;
        assertThat(labels.put(label.group(), value.toString())).isNull();
        if (line.charAt(i) == ',') {
          i++;
        }
      }
      i++;
    }
    assertThat(line.charAt(i)).isEqualTo(' ');
    String value = line.substring(i + 1);
    assertThat(value).as("line %d: a number", n).matches(NUMBER);
    return new Sample(metric, labels, value);
  }
}
