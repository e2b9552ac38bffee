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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every JSON report vtscope writes validates against the published schema. */
@Tag("runtime-independent")
class JsonSchemaTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonSchema schema() throws IOException {
    Path file = TestRecordings.repoRoot().resolve("docs/vtscope-report.schema.json");
    SchemaValidatorsConfig config =
        SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    try (InputStream in = Files.newInputStream(file)) {
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in, config);
    }
  }

  static Stream<Path> recordings() {
    return TestRecordings.samplesAndFreshRecordings().stream();
  }

  @ParameterizedTest
  @MethodSource("recordings")
  void everyGroupingValidates(Path recording) throws IOException {
    JsonSchema schema = schema();
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
}
