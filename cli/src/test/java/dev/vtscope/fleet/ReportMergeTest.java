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

  @Test
  void batchesAddUpToTheSumOfAll() throws Exception {
    List<Path> samples;
    try (Stream<Path> files = Files.list(TestRecordings.repoRoot().resolve("samples/jdk21"))) {
      samples = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    int count = 2 * ReportMerge.BATCH + 17;
    List<Path> reports = new ArrayList<>();
    List<Report.Analyzed> read = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      ObjectNode doc = (ObjectNode) JSON.readTree(samples.get(k % samples.size()).toFile());
      ObjectNode input = (ObjectNode) doc.path("inputs").get(0);
      input.put("identity", input.path("identity").asText() + " #" + k);
      input.put("path", "node-" + k + "/" + Path.of(input.path("path").asText()).getFileName());
      Path report = dir.resolve(k + ".json");
      JSON.writeValue(report.toFile(), doc);
      reports.add(report);
      read.add(JsonReportReader.read(doc));
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

  private static JsonNode withoutNotes(ObjectNode doc) {
    ObjectNode copy = doc.deepCopy();
    copy.remove("notes");
    return copy;
  }
}
