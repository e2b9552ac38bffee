package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.DumpAnalyzer;
import dev.vtscope.analysis.DumpAnalyzer.NamedDump;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.GeneratedDumps;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.Samples;
import dev.vtscope.threaddump.ThreadDumpFiles;
import dev.vtscope.threaddump.ThreadDumpJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The text and JSON reports of thread dumps equal the committed golden files under {@code
 * src/test/resources/threaddump-reports/} (accept a change with {@code
 * -Dvtscope.updateGolden=true}, as {@link GoldenReportTest}), and every JSON one validates against
 * {@code docs/vtscope-waits.schema.json}.
 */
class DumpReportTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * A case: the golden files' name and the dumps it reads, as {@code jdk/scenario/file}; several
   * joined by {@code +} are one dump completed by its Thread.print, by {@code ,} a series.
   */
  static Stream<String> cases() {
    List<String> cases = new ArrayList<>();
    Samples.named("dump-to-file.json")
        .filter(p -> p.startsWith("jdk21.0.8/") || p.startsWith("jdk25/"))
        .forEach(cases::add);
    cases.add("jdk25/platform-cycle/thread-print.txt");
    cases.add("jdk21.0.8/semaphore-fan-out/thread-print.txt");
    cases.add("jdk25/monitor-cycle/dump-to-file.txt");
    cases.add(
        "jdk21.0.8/class-init-cycle/dump-to-file.json+jdk21.0.8/class-init-cycle/thread-print.txt");
    cases.add(
        "jdk25/semaphore-series/dump-1.json,jdk25/semaphore-series/dump-2.json,"
            + "jdk25/semaphore-series/dump-3.json");
    return cases.stream();
  }

  static DumpAnalysis analyze(String spec) throws IOException {
    List<NamedDump> dumps = new ArrayList<>();
    for (String one : spec.split(",")) {
      String[] parts = one.split("\\+");
      var dump = Samples.any(parts[0]);
      if (parts.length > 1) {
        dump = DumpMerge.of(dump, Samples.any(parts[1]));
      }
      dumps.add(new NamedDump(one, dump));
    }
    return DumpAnalyzer.analyze(dumps, AnalysisOptions.of(GroupBy.CULPRIT), null);
  }

  private static String render(ReportRenderer renderer, DumpAnalysis a) {
    StringWriter out = new StringWriter();
    renderer.render(new Report.DumpsAnalyzed(a, DumpAdvisor.advise(a)), new PrintWriter(out));
    return out.toString();
  }

  private static Path golden(String spec, String extension) {
    String name =
        spec.split(",")[0].replace("+", "-with-").replace('/', '_').replace('.', '-')
            + (spec.contains(",") ? "-series" : "");
    return TestRecordings.repoRoot()
        .resolve("cli/src/test/resources/threaddump-reports")
        .resolve(name + extension);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void textReportMatchesGolden(String spec) throws IOException {
    GoldenReportTest.compare(
        golden(spec, ".txt"), render(new TextReport(TextStyle.PLAIN), analyze(spec)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void jsonReportMatchesGoldenAndTheSchema(String spec) throws IOException {
    String json = render(new JsonReport("test"), analyze(spec));
    GoldenReportTest.compare(golden(spec, ".json"), json);
    assertThat(schema().validate(MAPPER.readTree(json))).as(spec).isEmpty();
  }

  /**
   * The JSON dumps shipped in {@code samples/jdk21/dumps} and {@code jdk25/dumps}, each made by a
   * workload.
   */
  static Stream<Path> shippedDumps() throws IOException {
    List<Path> dumps = new ArrayList<>();
    for (String jdk : List.of("jdk21", "jdk25")) {
      Path folder = TestRecordings.repoRoot().resolve("samples").resolve(jdk).resolve("dumps");
      try (Stream<Path> files = Files.list(folder)) {
        files.filter(f -> f.getFileName().toString().endsWith(".dump.json")).forEach(dumps::add);
      }
    }
    assertThat(dumps).hasSizeGreaterThanOrEqualTo(14);
    return dumps.stream().sorted();
  }

  /**
   * A shipped dump as a user reads it: {@code vtscope analyze NAME.dump.json
   * NAME.thread-print.txt}, the JSON completed by the Thread.print taken with it. The golden files
   * lie beside it as {@code NAME.waits.txt} and {@code NAME.waits.json}.
   */
  @ParameterizedTest
  @MethodSource("shippedDumps")
  void shippedDumpsReportAsTheirGoldenFiles(Path json) throws Exception {
    String base = json.getFileName().toString().replace(".dump.json", "");
    var dump = ThreadDumpFiles.read(json);
    Path printed = json.resolveSibling(base + ".thread-print.txt");
    if (Files.isRegularFile(printed)) {
      dump = DumpMerge.of(dump, ThreadDumpFiles.read(printed));
    }
    DumpAnalysis a =
        DumpAnalyzer.analyze(
            List.of(new NamedDump(base + ".dump.json", dump)),
            AnalysisOptions.of(GroupBy.CULPRIT),
            null);
    GoldenReportTest.compare(
        json.resolveSibling(base + ".waits.txt"), render(new TextReport(TextStyle.PLAIN), a));
    String report = render(new JsonReport("test"), a);
    GoldenReportTest.compare(json.resolveSibling(base + ".waits.json"), report);
    assertThat(schema().validate(MAPPER.readTree(report))).as(base).isEmpty();
  }

  @Test
  void theSchemaRejectsADocumentThatBreaksTheContract() throws IOException {
    JsonNode report =
        MAPPER.readTree(
            render(new JsonReport("test"), analyze("jdk25/lock-cycle/dump-to-file.json")));
    ((com.fasterxml.jackson.databind.node.ObjectNode) report.get("waits").get(0))
        .put("threads", "2");
    assertThat(schema().validate(report)).isNotEmpty();
  }

  /** Ten thousand virtual threads in three waits: a screenful, each wait one line and its names. */
  @Test
  void tenThousandVirtualThreadsRenderAsAScreenful() throws IOException {
    var dump = ThreadDumpJson.read(GeneratedDumps.parkedCrowd(10_000));
    DumpAnalysis a =
        DumpAnalyzer.analyze(
            List.of(new NamedDump("crowd.json", dump)), AnalysisOptions.of(GroupBy.CULPRIT), null);
    String text = render(new TextReport(TextStyle.PLAIN), a);
    assertThat(text.lines().count()).isLessThanOrEqualTo(40);
    List<String> semaphoreLines =
        text.lines().filter(l -> l.contains("virtual threads park in Semaphore.acquire")).toList();
    assertThat(semaphoreLines).hasSize(3);
    assertThat(semaphoreLines.get(0))
        .startsWith("  3,334 virtual threads park in Semaphore.acquire at App.task0:10")
        .contains("Semaphore$NonfairSync@6efb9");
    assertThat(text).contains("10,000 virtual");
  }

  @Test
  void markdownIsATableOfTheWaitsWithNamesEscaped() throws IOException {
    String md = render(new MarkdownReport(), analyze("jdk25/semaphore-fan-out/dump-to-file.json"));
    assertThat(md)
        .startsWith("## vtscope: what the threads wait for\n")
        .contains("| threads | what they wait for, where | for example |")
        .contains(
            "| 20 | virtual threads park in Semaphore.acquire at SemaphoreFanOut.lambda\\$main\\$0:27");
    String hostile = render(new MarkdownReport(), analyze("jdk25/escape-name/dump-to-file.txt"));
    assertThat(hostile).doesNotContain("\u001b");
    String series =
        render(
            new MarkdownReport(),
            analyze("jdk25/semaphore-series/dump-1.json,jdk25/semaphore-series/dump-2.json"));
    assertThat(series).contains("| threads in each dump | stuck |").contains("| 20 → 20 | 20 |");
  }

  @Test
  void aCarrierHeldPutsItsWaitFirstWithThePinnedNowFinding() throws IOException {
    DumpAnalysis a = analyze("jdk25/class-init-carriers/dump-to-file.json");
    assertThat(a.last().carriersHeld()).isEqualTo(1);
    assertThat(a.last().groups().get(0).carriersHeld()).isEqualTo(1);
    String text = render(new TextReport(TextStyle.PLAIN), a);
    assertThat(text).contains("1 virtual thread pinned now").contains("1 holding a carrier");
    assertThat(text.indexOf("pinned now")).isLessThan(text.indexOf("holding a carrier"));
  }

  private static JsonSchema schema() throws IOException {
    Path file = TestRecordings.repoRoot().resolve("docs/vtscope-waits.schema.json");
    SchemaValidatorsConfig config =
        SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    try (InputStream in = Files.newInputStream(file)) {
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in, config);
    }
  }
}
