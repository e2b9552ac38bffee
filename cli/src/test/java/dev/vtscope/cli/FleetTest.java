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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings of several JVMs read together, as a folder or a merge of their reports: what belongs
 * to one JVM stays with its recording and matches that recording analysed alone, findings keep the
 * severity of the recording where they were worst, and a recording reached twice counts once. The
 * fleet is one service run three times with different pools (1, 2 and 4 carriers) and lengths, plus
 * healthy recordings.
 */
class FleetTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;

  /** The service's three JVMs: each pins, with a pool of its own size and a length of its own. */
  private static final List<Path> NODES = new ArrayList<>();

  private static Path healthy;

  @BeforeAll
  static void recordTheFleet() throws Exception {
    int[][] nodes = {{1, 30}, {2, 60}, {4, 90}};
    for (int[] node : nodes) {
      Path recording =
          TestRecordings.recordWorkload(
              TestRecordings.jdk21Java(),
              List.of("jdk.VirtualThreadPinned#threshold=0ms"),
              List.of("-Djdk.virtualThreadScheduler.parallelism=" + node[0]),
              "pinning",
              "--variant",
              "synchronized",
              "--tasks",
              Integer.toString(node[1]));
      Path copy = dir.resolve("fleet/node-p" + node[0] + ".jfr");
      Files.createDirectories(copy.getParent());
      Files.copy(recording, copy);
      NODES.add(copy);
    }
    healthy = TestRecordings.repoRoot().resolve("samples/jdk21/sleep-fanout.jfr");
  }

  private static JsonNode analyze(Path... inputs) throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze", "-q", "--format", "json"));
    for (Path input : inputs) {
      args.add(input.toString());
    }
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  private static Path report(Path recording, String name) throws Exception {
    Path report = dir.resolve(name + ".json");
    Cli.Result r =
        Cli.run("analyze", "-q", "--format", "json", "-o", report.toString(), recording.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    return report;
  }

  private static JsonNode merge(Path... reports) throws Exception {
    List<String> args = new ArrayList<>(List.of("merge", "--format", "json"));
    for (Path report : reports) {
      args.add(report.toString());
    }
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  /** What belongs to a recording alone, as its row in inputs[] gives it. */
  private static JsonNode own(JsonNode input) {
    ObjectNode own = JSON.createObjectNode();
    for (String field :
        List.of(
            "identity",
            "durationNanos",
            "cpus",
            "scheduler",
            "recordingSettings",
            "pinnedEvents",
            "pinnedNanos",
            "carriersHeld")) {
      own.set(field, input.path(field));
    }
    return own;
  }

  @Test
  void eachRecordingKeepsTheFiguresItHasAlone() throws Exception {
    JsonNode fleet = analyze(dir.resolve("fleet"));
    assertThat(fleet.path("inputs")).hasSize(3);
    Map<String, JsonNode> alone = new HashMap<>();
    for (Path node : NODES) {
      JsonNode single = analyze(node);
      alone.put(node.getFileName().toString(), single);
    }
    List<Integer> pools = new ArrayList<>();
    for (JsonNode input : fleet.path("inputs")) {
      JsonNode single = alone.get(Path.of(input.path("path").asText()).getFileName().toString());
      assertThat(own(input)).isEqualTo(own(single.path("inputs").get(0)));
      assertThat(input.path("worstFinding").asText())
          .isEqualTo(single.path("findings").get(0).path("id").asText());
      pools.add(input.path("scheduler").path("parallelism").path("value").asInt());
    }
    assertThat(pools).containsExactlyInAnyOrder(1, 2, 4);

    // the carriers pinned and held at once are one recording's, whole, with its own parallelism
    JsonNode shown = fleet.path("carriersHeld");
    JsonNode from = fleet.path("inputs").get(shown.path("input").asInt());
    assertThat(shown).isEqualTo(withInput(from.path("carriersHeld"), shown.path("input")));
    JsonNode fromAlone = alone.get(Path.of(from.path("path").asText()).getFileName().toString());
    assertThat(fleet.path("pinned").path("peakConcurrentCarriers"))
        .isEqualTo(fromAlone.path("pinned").path("peakConcurrentCarriers"));
    assertThat(fleet.path("pinned").path("saturatedNanos"))
        .isEqualTo(fromAlone.path("pinned").path("saturatedNanos"));
    assertThat(shown.path("parallelism").asInt())
        .isEqualTo(from.path("scheduler").path("parallelism").path("value").asInt());
    Cli.Result text = Cli.run("analyze", dir.resolve("fleet").toString());
    // the text wraps at the terminal's width: read it as one line
    assertThat(text.out().replaceAll("\\s+", " "))
        .contains("pinned or entering a monitor at once in " + from.path("path").asText())
        .contains("all " + shown.path("parallelism").asInt() + " held for");

    // a merge of that report keeps them, parallelism included
    Path report = dir.resolve("fleet-report.json");
    Files.writeString(report, JSON.writeValueAsString(fleet));
    JsonNode again = merge(report);
    assertThat(again.path("carriersHeld")).isEqualTo(shown);
    assertThat(again.path("pinned").path("saturatedNanos"))
        .isEqualTo(fleet.path("pinned").path("saturatedNanos"));

    // each finding is the finding of the recording it names, with that recording's words
    for (JsonNode finding : fleet.path("findings")) {
      JsonNode worst = fleet.path("inputs").get(finding.path("figuresFrom").asInt());
      JsonNode single = alone.get(Path.of(worst.path("path").asText()).getFileName().toString());
      JsonNode same = same(single.path("findings"), finding);
      assertThat(same).as(finding.path("id").asText()).isNotNull();
      assertThat(finding.path("severity")).isEqualTo(same.path("severity"));
      assertThat(finding.path("title")).isEqualTo(same.path("title"));
      assertThat(finding.path("explanation")).isEqualTo(same.path("explanation"));
      assertThat(finding.path("figures")).isEqualTo(same.path("figures"));
    }
  }

  /** The finding of {@code findings} by the same rule about the same classes, or null. */
  private static JsonNode same(JsonNode findings, JsonNode finding) {
    for (JsonNode f : findings) {
      if (f.path("id").equals(finding.path("id"))
          && f.path("classes").equals(finding.path("classes"))) {
        return f;
      }
    }
    return null;
  }

  private static JsonNode withInput(JsonNode held, JsonNode input) {
    ObjectNode copy = held.deepCopy();
    copy.set("input", input);
    return copy;
  }

  @Test
  void healthyRecordingsNeverLowerASeverity() throws Exception {
    Path node = NODES.get(0);
    JsonNode alone = analyze(node);
    JsonNode withHealthy =
        analyze(node, healthy, TestRecordings.repoRoot().resolve("samples/jdk21/cpu-bound.jfr"));
    for (JsonNode finding : alone.path("findings")) {
      if (finding.path("id").asText().equals("healthy")) {
        continue;
      }
      JsonNode same = same(withHealthy.path("findings"), finding);
      assertThat(same).as(finding.path("id").asText()).isNotNull();
      assertThat(same.path("severity")).isEqualTo(finding.path("severity"));
      assertThat(same.path("explanation")).isEqualTo(finding.path("explanation"));
      assertThat(same.path("recordings")).hasSize(1);
    }
    assertThat(withHealthy.path("findings").findValuesAsText("id")).doesNotContain("healthy");
    // a healthy recording's row says so, as its own report does
    assertThat(withHealthy.path("inputs").get(1).path("worstFinding").asText())
        .isEqualTo(analyze(healthy).path("inputs").get(0).path("worstFinding").asText())
        .isEqualTo("healthy");
  }

  @Test
  void checkOfAFolderFailsWheneverOneOfItsFilesFailsAlone() throws Exception {
    Path folder = dir.resolve("check");
    Files.createDirectories(folder);
    Files.copy(NODES.get(1), folder.resolve("bad.jfr"));
    Files.copy(healthy, folder.resolve("healthy-1.jfr"));
    Files.copy(
        TestRecordings.repoRoot().resolve("samples/jdk21/connection-pool-semaphore.jfr"),
        folder.resolve("healthy-2.jfr"));
    for (String failOn : List.of("high", "medium")) {
      int alone = Cli.run("check", "--fail-on", failOn, NODES.get(1).toString()).exitCode();
      int healthyAlone = Cli.run("check", "--fail-on", failOn, healthy.toString()).exitCode();
      int together = Cli.run("check", "--fail-on", failOn, folder.toString()).exitCode();
      assertThat(alone).as("the pinning node fails alone").isEqualTo(ExitCode.CHECK_FAILED.code());
      assertThat(healthyAlone).isZero();
      assertThat(together).isEqualTo(alone);
    }
    // the failed finding says which recording has it
    Cli.Result text = Cli.run("check", folder.toString());
    assertThat(text.out()).contains("FAIL").contains("Only in " + folder.resolve("bad.jfr"));
    JsonNode json = JSON.readTree(Cli.run("check", folder.toString(), "--format", "json").out());
    assertThat(json.path("inputs")).hasSize(3);
    for (JsonNode check : json.path("checks")) {
      for (JsonNode r : check.path("finding").path("recordings")) {
        assertThat(json.path("inputs").get(r.path("input").asInt()).asText())
            .isEqualTo(r.path("path").asText());
      }
    }
  }

  @Test
  void theSameRecordingReachedTwiceCountsOnce() throws Exception {
    Path a = report(NODES.get(0), "twice-a");
    Path b = report(NODES.get(1), "twice-b");
    Path c = report(NODES.get(2), "twice-c");
    long eventsOfA = JSON.readTree(a.toFile()).path("pinned").path("events").asLong();
    assertThat(eventsOfA).isPositive();

    // the same report twice
    JsonNode doubled = merge(a, a);
    assertThat(doubled.path("pinned").path("events").asLong()).isEqualTo(eventsOfA);
    assertThat(doubled.path("inputs")).hasSize(1);
    assertThat(doubled.path("notes").findValuesAsText("id")).contains("duplicate-input");

    // a merge left beside its parts, given before or after them
    Path ab = dir.resolve("twice-ab.json");
    assertThat(
            Cli.run("merge", "--format", "json", "-o", ab.toString(), a.toString(), b.toString())
                .exitCode())
        .isZero();
    JsonNode all = merge(ab, c);
    for (List<Path> given : List.of(List.of(a, ab, c, b), List.of(ab, c, a), List.of(c, b, ab))) {
      JsonNode again = merge(given.toArray(Path[]::new));
      // in another order, each site's time per recording is under other indices
      assertThat(withoutIndices(again.path("pinned")))
          .isEqualTo(withoutIndices(all.path("pinned")));
      assertThat(again.path("inputs")).hasSize(3);
      assertThat(again.path("notes").findValuesAsText("id")).contains("duplicate-input");
    }

    // the same recording analysed from two paths
    Path copy = dir.resolve("copy-of-node.jfr");
    Files.copy(NODES.get(0), copy);
    JsonNode read = analyze(NODES.get(0), copy);
    assertThat(read.path("pinned").path("events").asLong()).isEqualTo(eventsOfA);
  }

  private static JsonNode withoutIndices(JsonNode pinned) {
    ObjectNode copy = pinned.deepCopy();
    copy.path("sites").forEach(site -> ((ObjectNode) site).remove("nanosByInput"));
    return copy;
  }

  @Test
  void reportsThatShareOnlySomeRecordingsAreRefused() throws Exception {
    Path a = report(NODES.get(0), "overlap-a");
    Path b = report(NODES.get(1), "overlap-b");
    Path c = report(NODES.get(2), "overlap-c");
    Path ab = dir.resolve("overlap-ab.json");
    Path bc = dir.resolve("overlap-bc.json");
    Cli.run("merge", "--format", "json", "-o", ab.toString(), a.toString(), b.toString());
    Cli.run("merge", "--format", "json", "-o", bc.toString(), b.toString(), c.toString());
    Cli.Result r = Cli.run("merge", ab.toString(), bc.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCode.NOT_A_RECORDING.code());
    assertThat(r.err())
        .contains(bc + " and " + ab + " share 1 recording (" + NODES.get(1) + ") but not all")
        .doesNotContain("\tat ");
  }

  @Test
  void mergeTakesAFolderOfReportsAndSaysWhatIsWrongWithAFile() throws Exception {
    Path folder = dir.resolve("reports");
    Files.createDirectories(folder);
    report(NODES.get(0), "reports/a");
    report(NODES.get(1), "reports/b");
    JsonNode merged = merge(folder);
    assertThat(merged.path("inputs")).hasSize(2);

    Path cut = dir.resolve("cut.json");
    String whole = Files.readString(folder.resolve("a.json"));
    Files.writeString(cut, whole.substring(0, whole.length() / 2));
    Cli.Result r = Cli.run("merge", cut.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCode.NOT_A_RECORDING.code());
    assertThat(r.err()).contains("cut short");
    Path empty = dir.resolve("empty.json");
    Files.writeString(empty, "");
    assertThat(Cli.run("merge", empty.toString()).err()).contains("an empty file");
    Cli.Result asRecording = Cli.run("analyze", folder.resolve("a.json").toString());
    assertThat(asRecording.err()).contains("vtscope merge");
  }

  @Test
  void aReportOfTheFirstSchemaIsRefusedWithWhatToDo() throws Exception {
    ObjectNode old = (ObjectNode) JSON.readTree(report(NODES.get(0), "old").toFile());
    old.put("schemaVersion", 1);
    Path file = dir.resolve("old-schema.json");
    Files.writeString(file, old.toString());
    Cli.Result r = Cli.run("merge", file.toString(), report(NODES.get(1), "new").toString());
    assertThat(r.exitCode()).isEqualTo(ExitCode.NOT_A_RECORDING.code());
    assertThat(r.err()).contains("schema version 1").contains("analyse the recording again");
  }

  @Test
  void aTextReportOfManyRecordingsCountsThemAndTablesThem() throws Exception {
    // twelve recordings: more than the text report lists one by one
    Path folder = dir.resolve("many");
    Files.createDirectories(folder);
    List<Path> samples =
        TestRecordings.samples().stream()
            .filter(p -> p.toString().contains("jdk21"))
            .limit(12)
            .toList();
    for (Path sample : samples) {
      Files.copy(sample, folder.resolve(sample.getFileName()));
    }
    Cli.Result r = Cli.run("analyze", folder.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("  recordings  12 recordings from 1 folder");
    assertThat(r.out()).doesNotContain("  recording   ");
    assertThat(r.out()).contains("Recordings (worst first)").contains("and 2 more recordings");
    // the settings note names each distinct setting once, not each recording
    assertThat(r.out().lines().filter(l -> l.contains("stack depth")).count()).isLessThan(6);
  }
}
