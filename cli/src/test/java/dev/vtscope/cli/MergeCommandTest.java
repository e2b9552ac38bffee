package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code vtscope merge}: the JSON reports of recordings analysed one by one add up to the report of
 * one analysis of them all. The oracle is vtscope itself, reading every recording in one command.
 */
class MergeCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** JDK 21 and 25, pins, monitors, carrier work, rejected tasks; a stall in the second one. */
  private static final List<String> RECORDINGS =
      List.of(
          "jdk21/pinning-synchronized.jfr",
          "jdk25/class-init.jfr",
          "jdk21/connection-pool-wait-notify.jfr",
          "jdk25/native-pinning.jfr",
          "jdk21/carrier-monopoly-file-io.jfr",
          "jdk21/submit-failed.jfr");

  @TempDir Path dir;

  private List<Path> recordings() {
    Path samples = TestRecordings.repoRoot().resolve("samples");
    return RECORDINGS.stream().map(samples::resolve).toList();
  }

  /** Each recording's JSON report, as a batch task per recording would write it. */
  private List<Path> reports(String groupBy) {
    List<Path> reports = new ArrayList<>();
    for (Path recording : recordings()) {
      Path report =
          dir.resolve(
              groupBy
                  + "-"
                  + recording.getParent().getFileName()
                  + "-"
                  + recording.getFileName()
                  + ".json");
      Cli.Result r =
          Cli.run(
              "analyze",
              recording.toString(),
              "--group-by",
              groupBy,
              "--format",
              "json",
              "-o",
              report.toString());
      assertThat(r.exitCode()).as(r.err()).isZero();
      reports.add(report);
    }
    return reports;
  }

  private JsonNode together(String groupBy) throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze", "--group-by", groupBy));
    recordings().forEach(p -> args.add(p.toString()));
    args.addAll(List.of("--format", "json"));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  private static JsonNode merge(List<Path> reports, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("merge"));
    reports.forEach(p -> args.add(p.toString()));
    args.addAll(List.of("--format", "json"));
    args.addAll(List.of(more));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  @ParameterizedTest
  @ValueSource(strings = {"culprit", "stack", "top-frame"})
  void mergedReportsAreTheReportOfOneAnalysisOfAllTheRecordings(String groupBy) throws Exception {
    JsonNode merged = withoutJdkClassFileNotes(merge(reports(groupBy)));
    JsonNode expected = withoutJdkClassFileNotes(together(groupBy));
    assertThat(merged).isEqualTo(expected);
    // the whole document: sites, exact percentiles, findings and their severities, pool, notes
    assertThat(merged.at("/inputs")).hasSize(RECORDINGS.size());
    assertThat(merged.at("/pinned/events").asLong()).isPositive();
    if (groupBy.equals("culprit")) {
      // rated by the recording where it stalled (the second), as when analysed alone
      assertThat(severity(merged, "class-init-pinning")).isEqualTo("high");
    }
  }

  @Test
  void mergesOfMergesAddUpTheSameWay() throws Exception {
    List<Path> reports = reports("culprit");
    Path first = dir.resolve("first.json");
    Path second = dir.resolve("second.json");
    for (var half :
        List.of(
            new Object[] {reports.subList(0, 3), first},
            new Object[] {reports.subList(3, reports.size()), second})) {
      @SuppressWarnings("unchecked")
      List<Path> part = (List<Path>) half[0];
      List<String> args = new ArrayList<>(List.of("merge"));
      part.forEach(p -> args.add(p.toString()));
      args.addAll(List.of("--format", "json", "-o", half[1].toString()));
      Cli.Result r = Cli.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).as(r.err()).isZero();
    }
    JsonNode merged = merge(List.of(first, second));
    JsonNode expected = together("culprit");
    for (String section :
        List.of(
            "/inputs",
            "/pinned",
            "/carriersHeld",
            "/monitorEnter",
            "/monitorWait",
            "/carrierWork",
            "/submitFailed",
            "/findings",
            "/carrierPool")) {
      assertThat(merged.at(section)).as(section).isEqualTo(expected.at(section));
    }
  }

  private static long rejectedThreads(Cli.Result result) throws Exception {
    assertThat(result.exitCode()).as(result.err()).isZero();
    long threads = 0;
    for (JsonNode group : JSON.readTree(result.out()).at("/submitFailed/groups")) {
      threads += group.get("virtualThreads").asLong();
    }
    return threads;
  }

  /** A library named by its jar's manifest keeps the header that named it through a merge. */
  @Test
  void aManifestArtifactKeepsItsHeaderThroughAMerge() throws Exception {
    Path report = reports("culprit").get(0);
    ObjectNode root = (ObjectNode) JSON.readTree(report.toFile());
    ObjectNode culprit = (ObjectNode) root.at("/pinned/sites/0/culprit");
    culprit.put("artifact", "org.hsqldb.hsqldb 2.7.4");
    culprit.put("artifactVersion", "2.7.4");
    culprit.put("artifactSource", "manifest");
    culprit.put("artifactHeader", "Bundle-SymbolicName");
    culprit.put("jar", "hsqldb-2.7.4.jar");
    Path edited = dir.resolve("manifest.json");
    JSON.writeValue(edited.toFile(), root);
    JsonNode merged = merge(List.of(edited));
    assertThat(merged.at("/pinned/sites/0/culprit/artifactHeader").asText())
        .isEqualTo("Bundle-SymbolicName");
    // an earlier report's "Name version" reads as the name, shown as the name:version of today's
    assertThat(merged.at("/pinned/sites/0/culprit/artifact").asText())
        .isEqualTo("org.hsqldb.hsqldb:2.7.4");
    assertThat(merged.at("/pinned/sites/0/culprit/artifactVersion").asText()).isEqualTo("2.7.4");
  }

  @Test
  void anArtifactNamedByItsFileNameKeepsItsSourceThroughAMerge() throws Exception {
    Path report = reports("culprit").get(0);
    ObjectNode root = (ObjectNode) JSON.readTree(report.toFile());
    ObjectNode culprit = (ObjectNode) root.at("/pinned/sites/0/culprit");
    culprit.put("artifact", "acme-jni:10.10.1.1");
    culprit.put("artifactVersion", "10.10.1.1");
    culprit.put("artifactSource", "file_name");
    culprit.putNull("artifactHeader");
    culprit.put("jar", "acme-jni-10.10.1.1-linux64.jar");
    Path edited = dir.resolve("file-name.json");
    JSON.writeValue(edited.toFile(), root);
    JsonNode merged = merge(List.of(edited));
    JsonNode out = merged.at("/pinned/sites/0/culprit");
    assertThat(out.path("artifact").asText()).isEqualTo("acme-jni:10.10.1.1");
    assertThat(out.path("artifactVersion").asText()).isEqualTo("10.10.1.1");
    assertThat(out.path("artifactSource").asText()).isEqualTo("file_name");
    assertThat(out.path("jar").asText()).isEqualTo("acme-jni-10.10.1.1-linux64.jar");
  }

  /** Thread ids are per JVM: rejected virtual threads of two recordings add up. */
  @Test
  void rejectedThreadsOfSeveralRecordingsAddUp() throws Exception {
    Path samples = TestRecordings.repoRoot().resolve("samples");
    String recording = samples.resolve("jdk21/submit-failed.jfr").toString();
    String other = samples.resolve("jdk25/submit-failed.jfr").toString();
    long first = rejectedThreads(Cli.run("analyze", recording, "--format", "json"));
    long second = rejectedThreads(Cli.run("analyze", other, "--format", "json"));
    assertThat(first).isPositive();
    assertThat(second).isPositive();
    assertThat(rejectedThreads(Cli.run("analyze", recording, other, "--format", "json")))
        .isEqualTo(first + second);
    // the same recording given twice is read once, and the report says so
    Cli.Result one = Cli.run("analyze", recording, "--format", "json");
    Cli.Result two = Cli.run("analyze", recording, recording, "--format", "json");
    assertThat(rejectedThreads(two)).isEqualTo(first);
    assertThat(two.out()).contains("\"id\" : \"repeated-chunks\"");
    // a merge of its report twice knows the recording by its identity: it counts once and says so
    Path report = dir.resolve("once.json");
    Files.writeString(report, one.out());
    Cli.Result merged = Cli.run("merge", report.toString(), report.toString(), "--format", "json");
    assertThat(merged.exitCode()).as(merged.err()).isZero();
    assertThat(rejectedThreads(merged)).isEqualTo(first);
    assertThat(merged.out()).contains("were left out (" + report + ")");
  }

  @Test
  void aTextReportOfTheFleet() throws Exception {
    List<String> args = new ArrayList<>(List.of("merge"));
    reports("culprit").forEach(p -> args.add(p.toString()));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("SharedLockPinning.withMonitor")
        .contains("ClassInitPinning$SlowInit")
        .contains("merged      " + RECORDINGS.size() + " recordings");
  }

  @Test
  void whatIsNotAnAnalysisReportIsOneLineAndNothingIsWritten() throws Exception {
    List<Path> reports = reports("culprit");
    Path recording = recordings().get(0);
    Cli.Result jfr = Cli.run("merge", reports.get(0).toString(), recording.toString());
    assertThat(jfr.exitCode()).isEqualTo(4);
    assertThat(jfr.err().lines()).hasSize(1);
    assertThat(jfr.err()).contains(recording.toString()).contains("not JSON");

    Cli.Result missing = Cli.run("merge", dir.resolve("nothing.json").toString());
    assertThat(missing.exitCode()).isEqualTo(3);
    assertThat(missing.err().lines()).hasSize(1);

    Path check = dir.resolve("check.json");
    Cli.Result checked = Cli.run("check", recording.toString(), "--format", "json");
    Files.writeString(check, checked.out());
    Cli.Result notAnalysis = Cli.run("merge", check.toString());
    assertThat(notAnalysis.exitCode()).isEqualTo(4);
    assertThat(notAnalysis.err()).contains("merge takes vtscope analyze --format json");

    // a report of a release that wrote no distributions cannot be added up exactly
    ObjectNode old = (ObjectNode) JSON.readTree(reports.get(0).toFile());
    old.at("/pinned/sites").forEach(site -> ((ObjectNode) site).remove("distribution"));
    Path oldReport = dir.resolve("old.json");
    JSON.writeValue(oldReport.toFile(), old);
    Cli.Result before = Cli.run("merge", oldReport.toString());
    assertThat(before.exitCode()).isEqualTo(4);
    assertThat(before.err()).contains("analyse the recording again");

    Path stack = reports("stack").get(1);
    Cli.Result mixed = Cli.run("merge", reports.get(0).toString(), stack.toString());
    assertThat(mixed.exitCode()).isEqualTo(4);
    assertThat(mixed.err()).contains("--group-by");

    Cli.Result html = Cli.run("merge", reports.get(0).toString(), "--format", "html");
    assertThat(html.exitCode()).isEqualTo(2);
    assertThat(html.err())
        .contains("--format takes text, json, markdown, openmetrics or otlp-json, not 'html'");

    byte[] kept = Files.readAllBytes(reports.get(1));
    Cli.Result onto =
        Cli.run(
            "merge",
            reports.get(0).toString(),
            reports.get(1).toString(),
            "-o",
            reports.get(1).toString());
    assertThat(onto.exitCode()).isEqualTo(2);
    assertThat(Files.readAllBytes(reports.get(1))).isEqualTo(kept);
  }

  /**
   * The document without the notes on which JDK's class files checked the JDK frames: one command
   * reading every recording checks them all against the first recording's JDK, while each report of
   * a merge was made with its own recording's JDK (more exact); whether that JDK is installed
   * depends on the machine.
   */
  private static JsonNode withoutJdkClassFileNotes(JsonNode report) {
    ObjectNode copy = report.deepCopy();
    var notes = copy.withArray("notes");
    for (int i = notes.size() - 1; i >= 0; i--) {
      if (notes.get(i).path("id").asText().startsWith("jdk-")) {
        notes.remove(i);
      }
    }
    return copy;
  }

  private static String severity(JsonNode report, String id) {
    for (JsonNode f : report.at("/findings")) {
      if (f.path("id").asText().equals(id)) {
        return f.path("severity").asText();
      }
    }
    return null;
  }
}
