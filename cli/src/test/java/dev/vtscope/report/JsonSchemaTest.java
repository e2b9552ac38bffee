package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every JSON report vtscope writes validates against the published schema. */
@Tag("runtime-independent")
class JsonSchemaTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonSchema schema() throws IOException {
    return schema("docs/vtscope-report.schema.json");
  }

  private static JsonSchema schema(String name) throws IOException {
    Path file = TestRecordings.repoRoot().resolve(name);
    SchemaValidatorsConfig config =
        SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    try (InputStream in = Files.newInputStream(file)) {
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in, config);
    }
  }

  static Stream<Path> recordings() {
    return TestRecordings.samplesAndFreshRecordings().stream();
  }

  /** The report schema, read once for the class: a validator keeps no state between documents. */
  private static JsonSchema reportSchema;

  @BeforeAll
  static void readReportSchema() throws IOException {
    reportSchema = schema();
  }

  @ParameterizedTest
  @MethodSource("recordings")
  void everyGroupingValidates(Path recording) throws IOException {
    JsonSchema schema = reportSchema;
    for (GroupBy groupBy : GroupBy.values()) {
      JsonNode report =
          MAPPER.readTree(Reports.json(Reports.analyze(recording.toString(), recording, groupBy)));
      Set<ValidationMessage> errors = schema.validate(report);
      assertThat(errors).as(recording + " grouped by " + groupBy.label()).isEmpty();
    }
  }

  @Test
  void theSchemaRejectsADocumentThatBreaksTheContract() throws IOException {
    Path sample = TestRecordings.samples().get(0);
    ObjectNode report =
        (ObjectNode) MAPPER.readTree(Reports.json(Reports.analyze("x", sample, GroupBy.STACK)));
    ((ObjectNode) report.get("pinned")).put("totalNanos", "12 ms");
    report.remove("schemaVersion");
    assertThat(schema().validate(report)).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void aScanValidatesAndTheScanSchemaRejectsABrokenOne() throws Exception {
    Path workloads =
        Path.of(
            dev.vtscope.workloads.Workloads.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    dev.vtscope.scan.ScanResult result =
        new dev.vtscope.scan.ClassPathScanner(dev.vtscope.advice.Knowledge.standard(), 5)
            .scan(
                java.util.List.of(workloads),
                java.util.List.of(
                    "dev.vtscope.workloads.SharedLockPinning.withMonitor", "no.such.Class.m"));
    java.io.StringWriter text = new java.io.StringWriter();
    new JsonReport("test").render(new Report.Scanned(result), new java.io.PrintWriter(text));
    JsonNode scan = MAPPER.readTree(text.toString());
    JsonSchema schema = schema("docs/vtscope-scan.schema.json");
    assertThat(scan.get("findings")).isNotEmpty();
    assertThat(scan.get("callsOf")).hasSize(2);
    assertThat(schema.validate(scan)).isEmpty();
    ((ObjectNode) scan.get("findings").get(0)).put("severity", "grave");
    ((ObjectNode) scan).remove("depth");
    assertThat(schema.validate(scan)).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void analyzeWithScanAndScanWithRecordingsValidate() throws Exception {
    String recording =
        TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr").toString();
    String classPath = TestRecordings.workloadsClassPath();
    dev.vtscope.testing.Cli.Result analyzed =
        dev.vtscope.testing.Cli.run(
            "analyze", recording, "--classpath", classPath, "--scan", "--format", "json");
    assertThat(analyzed.exitCode()).as(analyzed.err()).isZero();
    JsonNode report = MAPPER.readTree(analyzed.out());
    assertThat(report.at("/scan/notHit")).isNotEmpty();
    assertThat(schema().validate(report)).isEmpty();
    ((ObjectNode) report.at("/pinned/sites/0")).put("predictedByScan", "yes");
    ((ObjectNode) report.get("scan")).remove("notHit");
    assertThat(schema().validate(report)).hasSizeGreaterThanOrEqualTo(2);

    dev.vtscope.testing.Cli.Result scanned =
        dev.vtscope.testing.Cli.run(
            "scan", classPath, "--recording", recording, "--format", "json");
    assertThat(scanned.exitCode()).as(scanned.err()).isZero();
    JsonNode scan = MAPPER.readTree(scanned.out());
    JsonSchema scanSchema = schema("docs/vtscope-scan.schema.json");
    assertThat(scan.has("findingsHit")).isTrue();
    assertThat(scanSchema.validate(scan)).isEmpty();
    ((ObjectNode) scan.get("findings").get(0)).putObject("hit").put("events", -1);
    assertThat(scanSchema.validate(scan)).isNotEmpty();
  }
}
