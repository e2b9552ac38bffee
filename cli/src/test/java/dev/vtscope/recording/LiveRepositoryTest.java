package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.LiveProgram;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A running JVM's repository folder, newest chunk still being written: read as it is and as a copy,
 * both readers give the same report, with the note that says the last chunk was read up to its last
 * flush.
 */
class LiveRepositoryTest {

  @TempDir Path dir;

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aRunningJvmsRepositoryIsReadNewestChunkIncluded(Path java) throws Exception {
    Path repository = dir.resolve("repository");
    Path settings = dir.resolve("vtscope.jfc");
    try (InputStream in = getClass().getResourceAsStream("/dev/vtscope/vtscope.jfc")) {
      Files.copy(in, settings);
    }
    List<String> command =
        ChildJvms.program(
            java,
            "-XX:StartFlightRecording:settings="
                + settings
                + ",jdk.VirtualThreadPinned#threshold=0ms",
            "-XX:FlightRecorderOptions:repository=" + repository,
            "-Xlog:jfr+startup=warning",
            "-cp",
            System.getProperty("java.class.path"),
            LiveProgram.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      while (line != null && line.startsWith("[")) {
        line = out.readLine(); // JFR's own start-up messages
      }
      assertThat(line).as("the program started").isEqualTo("ready");
      // JFR flushes the chunk being written about every second: wait for a flush to be on disk
      Path live = awaitFlushedChunk(repository);
      int files = chunkFiles(live).size();
      assertThat(files).as("finished chunks and the one being written").isGreaterThanOrEqualTo(2);
      Path copy = dir.resolve("copy");
      Files.createDirectories(copy);
      for (Path file : chunkFiles(live)) {
        Files.copy(file, copy.resolve(file.getFileName()));
      }
      for (Path folder : List.of(copy, live)) {
        var inputs = RecordingInputs.resolve(List.of(folder));
        assertThat(inputs).hasSize(1);
        JsonNode own =
            new ObjectMapper()
                .readTree(
                    Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.VTSCOPE)));
        assertThat(own.path("inputs").path(0).path("chunks").asInt()).isEqualTo(files);
        assertThat(own.path("inputs").path(0).path("complete").asBoolean()).isTrue();
        List<String> noteIds = new ArrayList<>();
        own.path("notes").forEach(n -> noteIds.add(n.path("id").asText()));
        assertThat(noteIds)
            .as(folder + ": " + own.path("notes"))
            .contains("in-progress")
            .doesNotContain("damaged-data", "partial-read");
        if (java.equals(TestRecordings.jdk21Java())) {
          assertThat(own.path("pinned").path("events").asLong())
              .as("pins of both chunks")
              .isPositive();
        }
        if (folder.equals(copy)) {
          JsonNode jdk =
              new ObjectMapper()
                  .readTree(Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.JDK)));
          // Only vtscope's reader can tell how many references point past the last flush, so the
          // in-progress note may say more; everything else is the same.
          assertThat(withoutLiveNote(own)).isEqualTo(withoutLiveNote(jdk));
        }
      }
    } finally {
      process.getOutputStream().close();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static String withoutLiveNote(JsonNode report) {
    com.fasterxml.jackson.databind.node.ObjectNode copy =
        (com.fasterxml.jackson.databind.node.ObjectNode) report.deepCopy();
    com.fasterxml.jackson.databind.node.ArrayNode notes = copy.putArray("notes");
    report
        .path("notes")
        .forEach(
            n -> {
              if (!n.path("id").asText().equals("in-progress")) {
                notes.add(n);
              }
            });
    return copy.toString();
  }

  /**
   * The repository's chunk folder once its newest chunk has been flushed twice, so that a copy has
   * some of both chunks.
   */
  private static Path awaitFlushedChunk(Path repository) throws Exception {
    long[] firstFlush = {0};
    Path[] found = {null};
    Eventually.holds(
        "a second chunk flushed twice in " + repository,
        () -> {
          if (!Files.isDirectory(repository)) {
            return false;
          }
          Path folder = chunkFolder(repository);
          List<Path> files = folder == null ? List.of() : chunkFiles(folder);
          if (files.size() < 2) {
            return false;
          }
          long flushed = flushedSize(files.get(files.size() - 1));
          if (flushed <= ChunkHeader.SIZE) {
            return false;
          }
          if (firstFlush[0] == 0) {
            firstFlush[0] = flushed;
            return false;
          }
          found[0] = folder;
          return flushed > firstFlush[0];
        });
    return found[0];
  }

  /** The size the chunk header of {@code file} gives: where its last flush ends. */
  private static long flushedSize(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return bytes.length < ChunkHeader.SIZE ? 0 : java.nio.ByteBuffer.wrap(bytes).getLong(8);
  }

  private static Path chunkFolder(Path repository) throws IOException {
    try (Stream<Path> folders = Files.list(repository)) {
      return folders.filter(Files::isDirectory).findFirst().orElse(null);
    }
  }

  private static List<Path> chunkFiles(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList();
    }
  }
}
