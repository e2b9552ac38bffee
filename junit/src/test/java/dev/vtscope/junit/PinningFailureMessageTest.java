package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.workloads.Workloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The message of a failed test says what {@code vtscope analyze} says of the same recording: the
 * committed samples' golden JSON reports hold the findings, and every finding the message quotes
 * must be one of them, with all of its actions, in order. Runs on any JDK: the recordings are read,
 * not made.
 */
class PinningFailureMessageTest {

  private static final Path SAMPLES = repoRoot().resolve("samples");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdk21/pinning-synchronized",
        "jdk21/pinning-synchronized-method",
        "jdk21/class-init",
        "jdk25/native-pinning",
        "jdk25/class-init"
      })
  void quotesTheFindingsOfAnalyzeForEachHolder(String sample) throws Exception {
    JsonNode golden = new ObjectMapper().readTree(SAMPLES.resolve(sample + ".json").toFile());
    PinningVerdict verdict =
        PinningVerdict.of(SAMPLES.resolve(sample + ".jfr"), PinningBudget.NONE, workloadsJar());

    String message = PinningFailureMessage.of(verdict, null);

    assertThat(verdict.passed()).isFalse();
    List<String> holders = new ArrayList<>();
    for (JsonNode site : golden.path("pinned").path("sites")) {
      holders.add(
          site.path("culprit").path("class").asText()
              + "."
              + site.path("culprit").path("method").asText());
    }
    assertThat(message.lines().filter(l -> l.matches("\\d+\\. .*")))
        .as("one numbered line per holder, in the report's order")
        .map(l -> l.replaceAll("^\\d+\\. (\\S+) holds the carrier: .*", "$1"))
        .containsExactlyElementsOf(holders);
    Map<String, List<String>> quoted = quotedFindings(message);
    assertThat(quoted).isNotEmpty();
    Map<String, List<String>> reported = new LinkedHashMap<>();
    for (JsonNode f : golden.path("findings")) {
      List<String> actions = new ArrayList<>();
      f.path("action").forEach(a -> actions.add(a.asText()));
      reported.put("[" + f.path("severity").asText() + "] " + f.path("title").asText(), actions);
    }
    assertThat(reported).containsAllEntriesOf(quoted);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk25/socket-roundtrip"})
  void theJdkInitialisingItsOwnClassesIsWarmUpAndPasses(String sample) {
    PinningVerdict verdict =
        PinningVerdict.of(SAMPLES.resolve(sample + ".jfr"), PinningBudget.NONE, workloadsJar());

    assertThat(verdict.analysis().pinned().events()).isPositive();
    assertThat(verdict.warmUp()).isNotEmpty();
    assertThat(verdict.counted()).isEmpty();
    assertThat(verdict.passed()).isTrue();
  }

  /** Each "finding" line of the message with the "fix" lines under it. */
  private static Map<String, List<String>> quotedFindings(String message) {
    Map<String, List<String>> quoted = new LinkedHashMap<>();
    List<String> actions = null;
    for (String line : message.lines().toList()) {
      if (line.startsWith("   finding    ")) {
        actions = new ArrayList<>();
        quoted.put(line.substring("   finding    ".length()), actions);
      } else if (line.startsWith("   fix        ") && actions != null) {
        actions.add(line.substring("   fix        ".length()));
      } else {
        actions = null;
      }
    }
    return quoted;
  }

  private static List<Path> workloadsJar() {
    try {
      return List.of(
          Path.of(Workloads.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Path repoRoot() {
    String root = System.getProperty("vtscope.repoRoot");
    return root == null || root.isBlank()
        ? Path.of("..").toAbsolutePath().normalize()
        : Path.of(root);
  }
}
