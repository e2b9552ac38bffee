package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.HostileCorpus;
import dev.vtscope.testing.HostileCorpus.Input;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input of the hostile corpus ({@link HostileCorpus}) read by vtscope's own reader: no stack
 * trace, no hang (10 s each), no changed input, and the outcome the input calls for; a report that
 * reads as whole when data was left out fails.
 */
class HostileCorpusTest {

  private static final Set<String> READING_WARNINGS =
      Set.of("partial-read", "damaged-data", "unreadable-file");

  private static Path dir;
  private static List<Input> corpus;

  @BeforeAll
  static void generate() throws IOException {
    dir = Files.createTempDirectory("vtscope-hostile");
    corpus = HostileCorpus.generate(dir);
  }

  @AfterAll
  static void removeTheCorpus() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static Stream<Input> inputs() throws IOException {
    if (corpus == null) {
      generate();
    }
    return corpus.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void eachInputGetsAClearOutcome(Input input) throws Exception {
    String before = fingerprint(input.path());
    Cli.Result result =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> Cli.run("analyze", "--format", "json", input.path().toString()));
    assertThat(fingerprint(input.path())).as("the input is unchanged").isEqualTo(before);
    String what = input.name() + " -> " + result.exitCode() + ": " + result.err();
    assertThat(result.exitCode()).as(what).isIn(0, 3, 4);
    if (result.exitCode() != 0) {
      assertThat(result.out()).as(what).isEmpty();
      assertThat(result.err().lines().toList()).as(what).hasSize(1);
      assertThat(result.err())
          .as(what)
          .startsWith("vtscope analyze: ")
          .doesNotContain("Exception")
          .doesNotContain("\tat ");
    } else {
      assertThat(result.err()).as(what).isEmpty();
    }
    List<String> warnings = new ArrayList<>();
    if (result.exitCode() == 0) {
      JsonNode report = new ObjectMapper().readTree(result.out());
      report
          .path("notes")
          .forEach(
              n -> {
                if (READING_WARNINGS.contains(n.path("id").asText())) {
                  warnings.add(n.path("id").asText());
                }
              });
    }
    switch (input.expect()) {
      case READ -> {
        assertThat(result.exitCode()).as(what).isZero();
        assertThat(warnings).as(what).isEmpty();
      }
      case REFUSED_OR_SALVAGED -> {
        if (result.exitCode() == 0) {
          assertThat(warnings).as("a salvaged report says what it left out: " + what).isNotEmpty();
        } else {
          assertThat(result.exitCode()).as(what).isEqualTo(4);
        }
      }
      case NOT_A_RECORDING -> assertThat(result.exitCode()).as(what).isEqualTo(4);
      case NOT_A_FILE -> assertThat(result.exitCode()).as(what).isEqualTo(3);
      case NO_CRASH -> {
        // the checks above: a documented outcome, one line, nothing changed, in time
      }
    }
  }

  private static String fingerprint(Path path) throws Exception {
    if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      return Files.isSymbolicLink(path)
          ? "link to " + Files.readSymbolicLink(path)
          : Files.isDirectory(path) ? "folder" : "special";
    }
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)));
  }
}
