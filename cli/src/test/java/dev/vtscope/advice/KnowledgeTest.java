package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KnowledgeTest {

  private static byte[] shipped() throws IOException {
    try (InputStream in = Knowledge.class.getResourceAsStream("knowledge.json")) {
      return in.readAllBytes();
    }
  }

  private static Knowledge read(String json) throws IOException {
    return Knowledge.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void readsTheShippedFileAsJacksonDatabindDoes() throws IOException {
    Knowledge databind =
        new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .readValue(shipped(), Knowledge.class);
    Knowledge own = Knowledge.read(new ByteArrayInputStream(shipped()));
    assertThat(own).isEqualTo(databind);
    assertThat(Knowledge.standard()).isEqualTo(own);
    assertThat(own.libraries()).isNotEmpty();
    assertThat(own.submitFailures()).isNotEmpty();
    assertThat(own.thresholds().maxRecommendedParallelism()).isPositive();
    // analyses made without the file (tests, embedding code) take the same releases
    assertThat(own.jdk().releases()).isEqualTo(dev.vtscope.analysis.JdkReleases.AS_SHIPPED);
  }

  @Test
  void refusesUnknownMissingAndMistypedFields() throws IOException {
    String json = new String(shipped(), StandardCharsets.UTF_8);
    assertThatThrownBy(() -> read(json.replace("\"highCapacityShare\"", "\"highCapacityShares\"")))
        .hasMessageContaining("unknown field \"highCapacityShares\"");
    assertThatThrownBy(() -> read(json.replaceFirst(",\\s*\"foreignFunctionsFinalIn\": 22", "")))
        .hasMessageContaining("lacks the field \"foreignFunctionsFinalIn\"");
    assertThatThrownBy(
            () ->
                read(
                    json.replace(
                        "\"maxRecommendedParallelism\": 256",
                        "\"maxRecommendedParallelism\": \"256\"")))
        .hasMessageContaining("maxRecommendedParallelism");
    assertThatThrownBy(() -> read("{\"jdk\": {}, \"jdk\": {}}")).hasMessageContaining("twice");
    assertThatThrownBy(() -> read("[]")).hasMessageContaining("not an object");
  }
}
