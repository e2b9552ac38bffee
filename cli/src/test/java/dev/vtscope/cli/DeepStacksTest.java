package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.StackTree;
import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.JfrFileReader;
import dev.vtscope.recording.PinnedEvent;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.DeepStackRecording;
import dev.vtscope.testing.Reports;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Stacks deeper than a JVM records (its cap is 2048 frames; a valid file can hold any depth): a
 * recording of 10,000-frame and one of 65,536-frame stacks are read whole by both readers, as the
 * JDK's own reads them, into the same report and tree. Every report format, explore, redact, merge
 * and check show the 10,000-frame stacks: far past any depth a recursion or a format's nesting
 * limit survives, at a sixth of the deeper file's cost. The recordings are written once for the
 * class.
 */
class DeepStacksTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;

  @BeforeAll
  static void write() throws IOException {
    for (int depth : new int[] {10_000, 65_536}) {
      DeepStackRecording.write(recording(depth), depth);
    }
  }

  private static Path recording(int depth) {
    return dir.resolve("deep-" + depth + ".jfr");
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000, 65_536})
  void vtscopesReaderReadsTheStacksAsTheJdksDoes(int depth) throws IOException {
    List<List<String>> jdk = new ArrayList<>();
    for (RecordedEvent e : RecordingFile.readAllEvents(recording(depth))) {
      List<String> frames = new ArrayList<>();
      for (RecordedFrame f : e.getStackTrace().getFrames()) {
        frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
      }
      jdk.add(frames);
    }
    List<List<String>> own = new ArrayList<>();
    RecordingListener listener =
        new RecordingListener() {
          @Override
          public void pinned(PinnedEvent event) {
            own.add(event.stack().frames().stream().map(Frame::qualifiedMethod).toList());
          }
        };
    try (JfrFileReader reader = new JfrFileReader()) {
      Path file = recording(depth);
      assertThat(reader.read(file, ChunkScanner.scan(file), listener).stoppedEarly()).isNull();
    }
    assertThat(jdk).extracting(List::size).containsExactlyInAnyOrder(depth, depth, depth / 2);
    assertThat(own).containsExactlyInAnyOrderElementsOf(jdk);
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000, 65_536})
  void bothReadersGiveTheSameReport(int depth) throws Exception {
    // every grouping once; the deepest stacks, whose reports are the largest, in one
    for (GroupBy groupBy : depth > 10_000 ? List.of(GroupBy.CULPRIT) : List.of(GroupBy.values())) {
      List<RecordingInput> inputs = RecordingInputs.resolve(List.of(recording(depth)));
      String own = Reports.json(Reports.analyze(inputs, groupBy, ReaderKind.VTSCOPE));
      String jdk = Reports.json(Reports.analyze(inputs, groupBy, ReaderKind.JDK));
      assertThat(own).as("grouped by " + groupBy).isEqualTo(jdk);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000, 65_536})
  void theTreeKeepsItsMostNodesAlongTheDeepestStack(int depth) {
    Analysis a = Reports.analyze("deep.jfr", recording(depth), GroupBy.CULPRIT);
    StackTree tree = a.pinnedTree();
    assertThat(tree.root().totalNanos()).isEqualTo(a.pinned().totalNanos());
    assertThat(tree.nodes()).isEqualTo(StackTree.MAX_NODES);
    // one chain from the root: every stack shares its outer frames
    StackTree.Node node = tree.root();
    int chain = 1;
    while (!node.children().isEmpty()) {
      assertThat(node.children()).hasSize(1);
      node = node.children().get(0);
      chain++;
    }
    assertThat(chain).isEqualTo(StackTree.MAX_NODES);
    assertThat(tree.root().children().get(0).frame()).isEqualTo("deep.Deep.run");
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000})
  void everyFormatShowsTheDeepStacks(int depth) throws IOException {
    String file = recording(depth).toString();
    for (String reader : new String[] {"vtscope", "jdk"}) {
      Cli.Result text = Cli.run("analyze", file, "--reader", reader);
      assertThat(text.exitCode()).as(text.err()).isZero();
      assertThat(text.out())
          .contains("3 events, 120 ms in total")
          .contains("… " + (depth - 4) + " more frames");
    }

    Cli.Result json = Cli.run("analyze", file, "--format", "json");
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode report = JSON.readTree(json.out());
    List<Integer> stacks = new ArrayList<>();
    report.findValues("stack").forEach(s -> stacks.add(s.size()));
    assertThat(stacks).contains(depth);

    Cli.Result markdown = Cli.run("analyze", file, "--format", "markdown");
    assertThat(markdown.exitCode()).as(markdown.err()).isZero();
    assertThat(markdown.out()).contains("deep.Deep.pinElsewhere");

    Cli.Result metrics = Cli.run("analyze", file, "--format", "openmetrics");
    assertThat(metrics.exitCode()).as(metrics.err()).isZero();
    assertThat(metrics.out()).contains("holder_method=\"pinElsewhere\"").endsWith("# EOF\n");

    Path html = dir.resolve("deep-" + depth + ".html");
    Cli.Result page = Cli.run("analyze", file, "--format", "html", "--output", html.toString());
    assertThat(page.exitCode()).as(page.err()).isZero();
    Matcher data =
        Pattern.compile("id=\"vtscope-data\">(.*?)</script>", Pattern.DOTALL)
            .matcher(Files.readString(html));
    assertThat(data.find()).isTrue();
    JsonNode tree = JSON.readTree(data.group(1)).path("tree");
    assertThat(tree.size()).isEqualTo(StackTree.MAX_NODES);
    assertThat(tree.get(tree.size() - 1).path("d").asInt()).isEqualTo(StackTree.MAX_NODES - 1);
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000})
  void exploreOpensTheDeepSites(int depth) throws Exception {
    List<RecordingInput> inputs = RecordingInputs.resolve(List.of(recording(depth)));
    CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create();
    AnalysisMixin options = new AnalysisMixin(spec, AnalysisMixin.Use.REPORT);
    new CommandLine(spec).setCaseInsensitiveEnumValuesAllowed(true).parseArgs();
    Analyzer analyzer = options.analyzer(inputs, null);
    Analysis analysis = options.analyze(analyzer, inputs);
    String script =
        "findings\nfinding 1\nsites\nsites filter recurse\nsite 1\nsite 2\n"
            + "group stack\nsite 1\ngroup top-frame\nsite 1\ngroup reason\nsite 1\n"
            + "save html "
            + dir.resolve("explored-" + depth + ".html")
            + "\nquit\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Terminal terminal =
        TerminalBuilder.builder()
            .system(false)
            .dumb(true)
            .streams(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)), out)
            .build()) {
      new Explorer(analyzer, analysis, options, inputs).run(terminal);
    }
    String shown = out.toString(StandardCharsets.UTF_8);
    assertThat(shown).contains("deep.Deep.pinElsewhere").doesNotContain("Exception");
    assertThat(shown.split("deep\\.Deep\\.recurse", -1).length - 1)
        .as("site 1 shown whole, in each grouping")
        .isGreaterThanOrEqualTo(4 * (depth - 2));
    assertThat(dir.resolve("explored-" + depth + ".html")).isNotEmptyFile();
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000})
  void redactMergeAndCheckTakeTheDeepStacks(int depth) throws IOException {
    Path redacted = dir.resolve("redacted-" + depth + ".jfr");
    Cli.Result redact = Cli.run("redact", recording(depth).toString(), redacted.toString());
    assertThat(redact.exitCode()).as(redact.err()).isZero();
    assertThat(RecordingFile.readAllEvents(redacted))
        .extracting(e -> e.getStackTrace().getFrames().size())
        .containsExactlyInAnyOrder(depth, depth, depth / 2);

    Path report = dir.resolve("report-" + depth + ".json");
    assertThat(
            Cli.run(
                    "analyze",
                    redacted.toString(),
                    "--format",
                    "json",
                    "--output",
                    report.toString())
                .exitCode())
        .isZero();
    Cli.Result merged = Cli.run("merge", report.toString());
    assertThat(merged.exitCode()).as(merged.err()).isZero();
    assertThat(merged.out())
        .contains("3 events, 120 ms in total")
        .contains("… " + (depth - 4) + " more frames");

    Cli.Result both =
        Cli.run(
            "analyze",
            recording(10_000).toString(),
            recording(depth).toString(),
            "--format",
            "html");
    assertThat(both.exitCode()).as(both.err()).isZero();
  }
}
