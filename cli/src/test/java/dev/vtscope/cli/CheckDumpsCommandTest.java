package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.DumpAnalyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Cli;
import dev.vtscope.threaddump.Samples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code vtscope check} of thread dumps: their findings fail it by severity, whatever the rules
 * that made them, and JUnit XML names each. The expected failures come from {@link DumpAdvisor}
 * itself, so that a rule added there changes what fails, not whether this holds.
 */
class CheckDumpsCommandTest {

  /** A virtual thread holds its carrier, blocked in a class's initialisation: pinned now. */
  private static final String PINNED = "jdk25/class-init-carriers/dump-to-file.json";

  private static String sample(String path) {
    return Samples.root().resolve(path).toString();
  }

  private static Advice advice(String path) throws Exception {
    DumpAnalysis a =
        DumpAnalyzer.analyze(
            List.of(new DumpAnalyzer.NamedDump(path, Samples.any(path))),
            AnalysisOptions.of(GroupBy.CULPRIT),
            null);
    return DumpAdvisor.advise(a);
  }

  private static List<Finding> atOrAbove(Advice advice, Severity severity) {
    return advice.findings().stream()
        .filter(f -> !f.healthy() && f.severity().compareTo(severity) >= 0)
        .toList();
  }

  @Test
  void aDumpsFindingsFailTheCheckByTheirSeverityAndJUnitNamesEach(@TempDir Path dir)
      throws Exception {
    List<Finding> failing = atOrAbove(advice(PINNED), Severity.MEDIUM);
    assertThat(failing)
        .as("the sample's pinned-now finding")
        .extracting(Finding::id)
        .contains("pinned-now");
    Path junit = dir.resolve("vtscope.xml");
    Cli.Result r =
        Cli.run("check", "--fail-on", "medium", "--junit", junit.toString(), sample(PINNED));

    assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.CHECK_FAILED.code());
    assertThat(r.out())
        .startsWith(
            "vtscope check: FAILED ("
                + failing.size()
                + " of "
                + failing.size()
                + " checks failed; 1 dump)")
        .contains("FAIL  pinned-now: ");
    Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
    NodeList failures = xml.getElementsByTagName("failure");
    assertThat(failures.getLength()).isEqualTo(failing.size());
    List<String> named = new ArrayList<>();
    for (int i = 0; i < failures.getLength(); i++) {
      named.add(((Element) failures.item(i).getParentNode()).getAttribute("name"));
    }
    for (Finding f : failing) {
      assertThat(named).anyMatch(n -> n.startsWith(f.id() + ": "));
    }
  }

  @Test
  void findingsBelowTheSeverityOrIgnoredPassTheCheck() throws Exception {
    Cli.Result none = Cli.run("check", "--fail-on", "none", sample(PINNED));
    assertThat(none.exitCode()).as(none.out()).isZero();
    assertThat(none.out()).startsWith("vtscope check: passed (0 of 0 checks failed; 1 dump)");

    // a dump with no finding at or above low passes, and says how many findings it had
    String quiet = "jdk25/semaphore-fan-out/dump-to-file.json";
    List<Finding> failing = atOrAbove(advice(quiet), Severity.LOW);
    Cli.Result r = Cli.run("check", "--fail-on", "low", sample(quiet));
    assertThat(r.exitCode())
        .as(r.out())
        .isEqualTo(failing.isEmpty() ? ExitCode.OK.code() : ExitCode.CHECK_FAILED.code());
    if (failing.isEmpty()) {
      assertThat(r.out()).contains("ok    no finding at or above low");
    }
  }

  @Test
  void aFolderOfOneJvmsDumpsIsCheckedAsASeriesInJson() throws Exception {
    Path series = Samples.root().resolve("jdk25/semaphore-series");
    DumpAnalysis a =
        DumpAnalyzer.analyze(
            DumpInputs.read(List.of(series), false, new ArrayList<>(), new java.util.Properties()),
            AnalysisOptions.of(GroupBy.CULPRIT),
            null);
    boolean fails = !atOrAbove(DumpAdvisor.advise(a), Severity.INFO).isEmpty();
    Cli.Result r = Cli.run("check", "--format", "json", "--fail-on", "info", series.toString());
    assertThat(r.exitCode())
        .as(r.out())
        .isEqualTo(fails ? ExitCode.CHECK_FAILED.code() : ExitCode.OK.code());
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
    assertThat(json.get("passed").asBoolean()).isEqualTo(!fails);
    assertThat(json.get("inputs")).hasSize(a.names().size());
    assertThat(a.isSeries()).isTrue();
    // the folder's README is not a dump: said on standard error, not checked
    assertThat(r.err()).contains("README.md: skipped");
  }

  @Test
  void aBudgetOfPinnedTimeIsRefusedForDumpsInOneLine() {
    for (String[] budget :
        List.of(
            new String[] {"--max-pinned-total", "1s"},
            new String[] {"--max-pinned-events", "3"},
            new String[] {"--max-site-total", "1s"})) {
      Cli.Result r = Cli.run("check", budget[0], budget[1], sample(PINNED));
      assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
      assertThat(r.err().lines()).hasSize(1);
      assertThat(r.err())
          .startsWith("vtscope check: " + budget[0] + ": a thread dump has no pinned time");
    }
  }
}
