package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
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

  /**
   * A damaged copy given first does not hide an intact one given after it: the chunk is read from
   * the first copy that is not damaged, and the damage is still reported.
   */
  @Test
  void anIntactCopyAfterADamagedOneIsRead() throws Exception {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    JsonNode once = analyze("vtscope", sample.toString());
    byte[] bytes = Files.readAllBytes(sample);
    byte[] damaged = bytes.clone();
    // the chunk's metadata, where its header says it is, overwritten: the header stays valid
    long metadata = ByteBuffer.wrap(bytes, 24, 8).getLong();
    Arrays.fill(damaged, (int) metadata, (int) metadata + 64, (byte) 0xFF);
    Path concatenated = dir.resolve("damaged-then-intact.jfr");
    try (OutputStream out = Files.newOutputStream(concatenated)) {
      out.write(damaged);
      out.write(bytes);
    }
    Path folder = Files.createDirectories(dir.resolve("folder"));
    Files.write(folder.resolve("a-damaged.jfr"), damaged);
    Files.write(folder.resolve("b-intact.jfr"), bytes);

    for (String[] given : new String[][] {{concatenated.toString()}, {folder.toString()}}) {
      List<String> args = new ArrayList<>(List.of("analyze"));
      args.addAll(List.of(given));
      args.addAll(List.of("--format", "json"));
      Cli.Result r = Cli.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).as(r.err()).isZero();
      JsonNode report = JSON.readTree(r.out());
      assertThat(withoutInputsAndNotes(report))
          .as("the report of %s", String.join(" ", given))
          .isEqualTo(withoutInputsAndNotes(once));
      assertThat(report.get("notes").toString())
          .as("the damaged copy is reported")
          .containsAnyOf("damaged", "unreadable");
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
