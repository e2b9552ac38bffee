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

  /**
   * Every release knowledge.json names was checked from the jars' bytecode: the committed output of
   * tools/verify-library-fixes.sh has a VERIFIED line for each claim as the file states it now, so
   * a claim changed without rerunning the check fails here.
   */
  @Test
  void everyLibraryClaimHasItsBytecodeEvidence() throws IOException {
    java.util.List<String> evidence =
        java.nio.file.Files.readAllLines(
            dev.vtscope.testing.TestRecordings.repoRoot()
                .resolve("docs/evidence/library-fixes.txt"));
    assertThat(evidence).noneMatch(line -> line.startsWith("FAILED"));
    for (Knowledge.Library lib : Knowledge.standard().libraries()) {
      String claim =
          lib.fixedIn() != null
              ? "fixedIn "
                  + lib.fixedIn()
                  + "  ("
                  + lib.lastAffected()
                  + " affected, "
                  + lib.fixedIn()
                  + " fixed)"
              : "no fix  (" + lib.checkedUpTo() + " still affected)";
      assertThat(evidence)
          .as(lib.name())
          .anyMatch(
              line ->
                  line.startsWith("VERIFIED  " + lib.artifact() + "  ") && line.contains(claim));
    }
  }

  @Test
  void aPackageOfALibraryGoesToItsMostSpecificEntry() {
    Knowledge k = Knowledge.standard();
    assertThat(k.library("ch.qos.logback.core.rolling.RollingFileAppender"))
        .hasValueSatisfying(l -> assertThat(l.fixedIn()).isNotNull());
    assertThat(k.library("ch.qos.logback.core.AppenderBase"))
        .hasValueSatisfying(l -> assertThat(l.fixedIn()).isNull());
    // the X DevAPI's pool was fixed in another release than the JDBC driver of the same jar
    assertThat(k.library("com.mysql.cj.xdevapi.ClientImpl"))
        .hasValueSatisfying(l -> assertThat(l.fixedIn()).isEqualTo("8.3.0"));
    assertThat(k.library("com.mysql.cj.jdbc.StatementImpl"))
        .hasValueSatisfying(l -> assertThat(l.fixedIn()).isEqualTo("9.0.0"));
    assertThat(k.library("com.example.Unknown")).isEmpty();
  }
}
