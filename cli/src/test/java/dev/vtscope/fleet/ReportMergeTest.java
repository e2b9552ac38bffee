package dev.vtscope.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.advice.Advice;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.RecordingSet;
import dev.vtscope.report.JsonReport;
import dev.vtscope.report.JsonReportReader;
import dev.vtscope.report.Report;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many reports are read a batch per task on every core and added up batch by batch; the sum is the
 * one adding them all up at once gives. The reports are the samples' own, each copied as the report
 * of another JVM (a distinct identity and path), more than two batches of them.
 */
class ReportMergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** {@code count} reports of distinct recordings, made from the samples' reports. */
  private List<Path> reports(int count) throws Exception {
    List<Path> samples;
    try (Stream<Path> files = Files.list(TestRecordings.repoRoot().resolve("samples/jdk21"))) {
      samples = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    List<Path> reports = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      ObjectNode doc = (ObjectNode) JSON.readTree(samples.get(k % samples.size()).toFile());
      ObjectNode input = (ObjectNode) doc.path("inputs").get(0);
      input.put("identity", input.path("identity").asText() + " #" + k);
      input.put("path", "node-" + k + "/" + Path.of(input.path("path").asText()).getFileName());
      Path report = dir.resolve(k + ".json");
      JSON.writeValue(report.toFile(), doc);
      reports.add(report);
    }
    return reports;
  }

  @Test
  void batchesAddUpToTheSumOfAll() throws Exception {
    int count = 2 * ReportMerge.BATCH + 17;
    List<Path> reports = reports(count);
    List<Report.Analyzed> read = new ArrayList<>();
    for (Path report : reports) {
      read.add(JsonReportReader.read(JSON.readTree(report.toFile())));
    }
    Report.Analyzed merged = new ReportMerge().merge(reports);

    List<Analysis> parts = read.stream().map(Report.Analyzed::analysis).toList();
    Analysis all = RecordingSet.sum(parts);
    Advice advice = Advice.combine(parts, read.stream().map(Report.Analyzed::advice).toList());

    JsonReport json = new JsonReport("test");
    ObjectNode batched = json.document(merged.analysis(), merged.advice());
    ObjectNode atOnce = json.document(all, advice);
    assertThat(batched.path("inputs")).hasSize(count);
    assertThat(withoutNotes(batched)).isEqualTo(withoutNotes(atOnce));
    // every note is said once, of the recordings it concerns
    assertThat(batched.path("notes")).isEqualTo(atOnce.path("notes"));
  }

  @Test
  void halvesRepeatsAndOrderChangeNothingButWhereEachRecordingIsListed() throws Exception {
    List<Path> reports = reports(40);
    JsonReport json = new JsonReport("test");
    ReportMerge merge = new ReportMerge();
    Report.Analyzed all = merge.merge(reports);
    ObjectNode whole = json.document(all.analysis(), all.advice());

    // halves, merged, then merged again
    Path first = dir.resolve("first-half.json");
    Path second = dir.resolve("second-half.json");
    write(json, merge.merge(reports.subList(0, 20)), first);
    write(json, merge.merge(reports.subList(20, 40)), second);
    Report.Analyzed halves = merge.merge(List.of(first, second));
    ObjectNode ofHalves = json.document(halves.analysis(), halves.advice());
    assertThat(withoutNotes(ofHalves)).isEqualTo(withoutNotes(whole));
    // each note said once, of the same recordings, as if the halves had not been merged first
    assertThat(ofHalves.path("notes")).isEqualTo(whole.path("notes"));

    // repeats: reports again, in the same order
    List<Path> repeated = new ArrayList<>(reports);
    repeated.addAll(reports.subList(5, 15));
    Report.Analyzed twice = merge.merge(repeated);
    ObjectNode again = json.document(twice.analysis(), twice.advice());
    assertThat(withoutNotes(again)).isEqualTo(withoutNotes(whole));
    assertThat(again.path("notes").findValuesAsText("id")).contains("duplicate-input");
    // a half beside its parts: the half is kept, where it was given
    repeated.add(first);
    Report.Analyzed withHalf = merge.merge(repeated);
    ObjectNode kept = json.document(withHalf.analysis(), withHalf.advice());
    assertThat(byIdentity(kept)).isEqualTo(byIdentity(whole));
    assertThat(findingsByRecording(kept)).isEqualTo(findingsByRecording(whole));

    // another order: the same recordings, each with the same figures and findings
    List<Path> shuffled = new ArrayList<>(reports);
    java.util.Collections.shuffle(shuffled, new java.util.Random(26));
    Report.Analyzed other = merge.merge(shuffled);
    ObjectNode reordered = json.document(other.analysis(), other.advice());
    assertThat(byIdentity(reordered)).isEqualTo(byIdentity(whole));
    assertThat(findingsByRecording(reordered)).isEqualTo(findingsByRecording(whole));
    assertThat(reordered.path("pinned").path("events"))
        .isEqualTo(whole.path("pinned").path("events"));
    assertThat(reordered.path("pinned").path("p99Nanos"))
        .isEqualTo(whole.path("pinned").path("p99Nanos"));
  }

  private static void write(JsonReport json, Report.Analyzed report, Path file) throws Exception {
    Files.writeString(file, json.document(report.analysis(), report.advice()).toString());
  }

  /** Each recording's row, by its identity. */
  private static java.util.Map<String, JsonNode> byIdentity(JsonNode doc) {
    java.util.Map<String, JsonNode> rows = new java.util.TreeMap<>();
    doc.path("inputs").forEach(i -> rows.put(i.path("identity").asText(), i));
    return rows;
  }

  /**
   * Each finding's words and severity in each recording, by the recordings' identities. Whose
   * figures it shows is left out: these reports are copies, so many recordings are equally worst,
   * and the first of equals is shown.
   */
  private static java.util.Set<String> findingsByRecording(JsonNode doc) {
    java.util.Set<String> said = new java.util.TreeSet<>();
    for (JsonNode f : doc.path("findings")) {
      for (JsonNode r : f.path("recordings")) {
        String in = doc.path("inputs").get(r.path("input").asInt()).path("identity").asText();
        said.add(
            f.path("id").asText()
                + "|"
                + f.path("title").asText()
                + "|"
                + f.path("explanation").asText()
                + "|"
                + in
                + "|"
                + r.path("severity").asText());
      }
    }
    return said;
  }

  private static JsonNode withoutNotes(ObjectNode doc) {
    ObjectNode copy = doc.deepCopy();
    copy.remove("notes");
    return copy;
  }
}
