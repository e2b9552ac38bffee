package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vtscope.analysis.Message;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The one place vtscope's sentences live: how figures are written, and that nothing is left over.
 */
class WordingTest {

  private static final Wording WORDING = Wording.standard();

  private static Properties statements() throws IOException {
    Properties p = new Properties();
    try (Reader in =
        Files.newBufferedReader(
            TestRecordings.repoRoot()
                .resolve("cli/src/main/resources/dev/vtscope/report/wording.properties"),
            StandardCharsets.UTF_8)) {
      p.load(in);
    }
    return p;
  }

  @Test
  void figuresAreWrittenForPeople() {
    assertThat(WORDING.format(Message.of("note.threshold", "threshold", Duration.ofMillis(20))))
        .startsWith("Pins shorter than 20 ms were not recorded");
    assertThat(WORDING.format(Message.of("monitor-pinning.other-monitors", "count", 3)))
        .isEqualTo("3 other monitors");
    // a count and a noun: singular for one, plural otherwise
    assertThat(
            WORDING.format(
                Message.of(
                    "file-io-carriers.title.calls", "calls", 1L, "total", Duration.ofMillis(12))))
        .isEqualTo("1 call, 12 ms");
    assertThat(
            WORDING.format(
                Message.of(
                    "file-io-carriers.title.calls", "calls", 2L, "total", Duration.ofSeconds(3))))
        .isEqualTo("2 calls, 3 s");
    // shares as whole percentages, <1% and n/a at the edges; lists with their separator
    assertThat(Wording.percent(Message.share(1, 3))).isEqualTo("33%");
    assertThat(Wording.percent(Message.share(1, 1000))).isEqualTo("<1%");
    assertThat(Wording.percent(Message.share(5, 0))).isEqualTo("n/a");
    assertThat(
            WORDING.format(
                Message.of(
                    "note.merged-settings",
                    "each",
                    List.of("a.jfr: x", "b.jfr: y"),
                    "first",
                    "a.jfr")))
        .isEqualTo(
            "The recordings were made with different JFR settings (a.jfr: x; b.jfr: y); the"
                + " settings line shows those of a.jfr.");
  }

  @Test
  void theFiguresOfAMessageAreDataForPrograms() {
    Message m =
        Message.of(
            "x",
            "pinned",
            Duration.ofMillis(3),
            "share",
            Message.share(1, 4),
            "events",
            7L,
            "part",
            Message.of("y"));
    assertThat(Wording.figures(m))
        .containsEntry("pinned", 3_000_000L)
        .containsEntry("share", 0.25)
        .containsEntry("events", 7L)
        .doesNotContainKey("part");
  }

  @Test
  void aMissingStatementOrFigureIsAnErrorNotASilentGap() {
    assertThatThrownBy(() -> WORDING.format(Message.of("no.such.statement")))
        .hasMessageContaining("no wording for no.such.statement");
    assertThatThrownBy(() -> WORDING.format(Message.of("note.threshold")))
        .hasMessageContaining("no figure threshold");
    assertThatThrownBy(() -> Message.of("x", "when", new Object()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyCulpritKindHasWords() {
    for (CulpritKind kind : CulpritKind.values()) {
      assertThat(WORDING.has("kind." + kind.name())).as(kind.name()).isTrue();
    }
  }

  /**
   * Every statement is used by the code: named by a string literal, or by a literal prefix that the
   * code completes (e.g. {@code "note." + id}). Statements nobody says are dead text.
   */
  @Test
  void everyStatementIsSaidSomewhere() throws IOException {
    Set<String> literals = new HashSet<>();
    Pattern literal = Pattern.compile("\"([a-z0-9.\\-]+)\"");
    for (String module : List.of("cli", "junit")) {
      try (Stream<Path> files =
          Files.walk(TestRecordings.repoRoot().resolve(module + "/src/main/java"))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          Matcher m = literal.matcher(Files.readString(file));
          while (m.find()) {
            literals.add(m.group(1));
          }
        }
      }
    }
    List<String> unused = new ArrayList<>();
    for (String key : statements().stringPropertyNames()) {
      boolean used =
          literals.contains(key)
              || literals.stream().anyMatch(l -> l.endsWith(".") && key.startsWith(l));
      if (!used) {
        unused.add(key);
      }
    }
    assertThat(unused).isEmpty();
  }

  @Test
  void everyStatementHasBalancedSlots() throws IOException {
    for (String key : statements().stringPropertyNames()) {
      String text = statements().getProperty(key);
      int depth = 0;
      for (char c : text.toCharArray()) {
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        assertThat(depth).as(key).isBetween(0, 1);
      }
      assertThat(depth).as(key).isZero();
    }
  }
}
