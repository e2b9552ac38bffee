package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file or stream holding the recordings of several JVMs back to back ({@code cat a.jfr b.jfr}) is
 * read as those recordings given apart: each JVM's chunks are a recording of their own, so that no
 * figure of one JVM mixes with another's, and {@code check} fails what it fails given apart.
 */
class SeveralJvmsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static Path sample(String name) {
    return TestRecordings.repoRoot().resolve("samples").resolve(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"vtscope", "jdk"})
  void twoJvmsInOneFileReportAsTheTwoFilesGivenApart(String reader) throws Exception {
    // in the order they were recorded, the order vtscope numbers the JVMs of one file
    Path first = sample("jdk21/pinning-synchronized.jfr");
    Path second = sample("jdk25/class-init.jfr");
    Path both = concatenate("both.jfr", first, second);

    JsonNode apart = analyze(reader, first.toString(), second.toString());
    JsonNode together = analyze(reader, both.toString());

    assertThat(together.get("inputs")).hasSize(2);
    List<String> names = new ArrayList<>();
    for (JsonNode input : together.get("inputs")) {
      names.add(input.get("path").asText());
    }
    assertThat(names)
        .containsExactly(
            both + " (JVM 1 of 2, pid " + apart.at("/inputs/0/pid").asLong() + ")",
            both + " (JVM 2 of 2, pid " + apart.at("/inputs/1/pid").asLong() + ")");
    JsonNode note = note(together, "several-jvms");
    assertThat(note).as("the note saying the file was taken apart").isNotNull();
    assertThat(note.at("/figures/jvms").asInt()).isEqualTo(2);
    assertThat(note.get("message").asText()).contains(both.toString(), names.get(0));

    // Everything else is the report of the two files, each figure from its own JVM.
    assertThat(named(withoutNote(together, "several-jvms"), names))
        .isEqualTo(named(apart, List.of(first.toString(), second.toString())));
  }

  @Test
  void checkFailsAFileOfTwoJvmsAsItFailsTheTwoGivenApart() throws Exception {
    // a short, pinned recording after a longer healthy one: read as one, the pins were diluted
    Path healthy = sample("jdk21/cpu-bound.jfr");
    Path pinned = sample("jdk21/pinning-synchronized.jfr");
    Path both = concatenate("both.jfr", healthy, pinned);
    for (String failOn : List.of("high", "medium")) {
      Cli.Result apart =
          Cli.run("check", healthy.toString(), pinned.toString(), "--fail-on", failOn);
      Cli.Result together = Cli.run("check", both.toString(), "--fail-on", failOn);
      assertThat(apart.exitCode()).as(apart.err()).isEqualTo(ExitCode.CHECK_FAILED.code());
      assertThat(together.exitCode())
          .as("check --fail-on %s of both.jfr: %s", failOn, together.out())
          .isEqualTo(apart.exitCode());
      assertThat(together.out()).contains("2 recordings");
    }
  }

  @Test
  void standardInputOfTwoJvmsIsTakenApartToo() throws Exception {
    Path first = sample("jdk21/pinning-synchronized.jfr");
    Path second = sample("jdk25/class-init.jfr");
    byte[] bytes = Files.readAllBytes(concatenate("both.jfr", first, second));
    Cli.Result piped = Cli.child(b -> {}, bytes, "analyze", "-", "--format", "json");
    assertThat(piped.exitCode()).as(piped.err()).isZero();
    JsonNode report = JSON.readTree(piped.out());
    assertThat(report.get("inputs")).hasSize(2);
    assertThat(report.at("/inputs/0/path").asText()).startsWith("- (JVM 1 of 2, pid ");
    JsonNode apart = analyze("vtscope", first.toString(), second.toString());
    assertThat(report.at("/pinned/events")).isEqualTo(apart.at("/pinned/events"));
    assertThat(report.at("/carriersHeld")).isEqualTo(apart.at("/carriersHeld"));
  }

  /** Chunks of one JVM are one recording, in one file or in a JFR repository's files. */
  @Test
  void chunksOfOneJvmStayOneRecording() throws Exception {
    Path chunked = dir.resolve("chunked.jfr");
    try (Recording recording = new Recording(Configuration.getConfiguration("default"))) {
      recording.setDestination(chunked);
      recording.start();
      // starting another recording makes the JVM begin a new chunk
      try (Recording rotate = new Recording()) {
        rotate.start();
        rotate.stop();
      }
      recording.stop();
    }
    JsonNode report = analyze("vtscope", chunked.toString());
    assertThat(report.get("inputs")).hasSize(1);
    assertThat(report.at("/inputs/0/chunks").asInt()).isGreaterThan(1);
    assertThat(report.at("/inputs/0/pid").asLong()).isEqualTo(ProcessHandle.current().pid());
    assertThat(note(report, "several-jvms")).isNull();
  }

  private Path concatenate(String name, Path... files) throws Exception {
    Path out = dir.resolve(name);
    try (OutputStream stream = Files.newOutputStream(out)) {
      for (Path file : files) {
        Files.copy(file, stream);
      }
    }
    return out;
  }

  private static JsonNode analyze(String reader, String... files) throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze"));
    args.addAll(List.of(files));
    args.addAll(List.of("--format", "json", "--reader", reader));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  private static JsonNode note(JsonNode report, String id) {
    for (JsonNode n : report.get("notes")) {
      if (n.get("id").asText().equals(id)) {
        return n;
      }
    }
    return null;
  }

  private static JsonNode withoutNote(JsonNode report, String id) {
    ObjectNode copy = report.deepCopy();
    ArrayNode notes = (ArrayNode) copy.get("notes");
    for (int i = notes.size() - 1; i >= 0; i--) {
      if (notes.get(i).get("id").asText().equals(id)) {
        notes.remove(i);
      }
    }
    return copy;
  }

  /** The report with the names of its recordings replaced by their order: R1, R2. */
  private static JsonNode named(JsonNode report, List<String> names) throws Exception {
    String text = JSON.writeValueAsString(report);
    for (int i = 0; i < names.size(); i++) {
      text =
          text.replace(
              JSON.writeValueAsString(names.get(i)).replaceAll("^\"|\"$", ""), "R" + (i + 1));
    }
    return JSON.readTree(text);
  }
}
