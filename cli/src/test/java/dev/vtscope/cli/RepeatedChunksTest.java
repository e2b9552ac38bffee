package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A chunk given more than once (a recording concatenated with itself, a folder holding two copies,
 * one file named by two paths) is read once: its pins would otherwise count twice and overlap
 * themselves, doubling the carriers pinned at once and the advice built on it.
 */
class RepeatedChunksTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"vtscope", "jdk"})
  void aRecordingGivenAgainCountsOnce(String reader) throws Exception {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    JsonNode once = analyze(reader, sample.toString());
    assertThat(once.at("/pinned/events").asLong()).isPositive();

    Path doubled = dir.resolve("doubled.jfr");
    try (OutputStream out = Files.newOutputStream(doubled)) {
      Files.copy(sample, out);
      Files.copy(sample, out);
    }
    Path link = dir.resolve("link.jfr");
    Files.createSymbolicLink(link, sample);
    Path folder = Files.createDirectories(dir.resolve("copies"));
    Files.copy(sample, folder.resolve("a.jfr"));
    Files.copy(sample, folder.resolve("b.jfr"));

    for (String[] given :
        new String[][] {
          {doubled.toString()},
          {sample.toString(), link.toString()},
          {sample.toString(), sample.toString()},
          {folder.toString()}
        }) {
      JsonNode again = analyze(reader, given);
      JsonNode note = null;
      for (JsonNode n : again.get("notes")) {
        if (n.get("id").asText().equals("repeated-chunks")) {
          note = n;
        }
      }
      assertThat(note).as("the note, for %s", String.join(" ", given)).isNotNull();
      assertThat(note.at("/figures/chunks").asLong()).isPositive();
      assertThat(withoutInputsAndNotes(again))
          .as("the report of %s", String.join(" ", given))
          .isEqualTo(withoutInputsAndNotes(once));
    }
  }

  private static JsonNode analyze(String reader, String... files) throws Exception {
    String[] args = new String[files.length + 5];
    args[0] = "analyze";
    System.arraycopy(files, 0, args, 1, files.length);
    args[files.length + 1] = "--format";
    args[files.length + 2] = "json";
    args[files.length + 3] = "--reader";
    args[files.length + 4] = reader;
    Cli.Result r = Cli.run(args);
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  /** The report but for what names the inputs and the notes. */
  private static JsonNode withoutInputsAndNotes(JsonNode report) {
    ObjectNode copy = report.deepCopy();
    copy.remove("inputs");
    copy.remove("notes");
    return copy;
  }
}
