package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The flag byte of a chunk header (byte 67: bit 0 says integers are compressed, bit 1 that the
 * chunk is a recording's last), set bit by bit, all at once and none: vtscope reads what the JDK's
 * reader reads, the same events, and refuses what it refuses. The JDK's reader reads a file's
 * chunks whatever their flags (it reads the final bit only when it follows a live repository), and
 * always reads integers compressed.
 */
class ChunkFlagsTest {

  private static final int FLAGS = 67;

  @TempDir static Path dir;

  static Stream<Arguments> headers() {
    List<Arguments> all = new ArrayList<>();
    for (int chunk = 1; chunk <= 2; chunk++) {
      for (int bit = 0; bit < 8; bit++) {
        all.add(Arguments.of(chunk, 1 << bit));
      }
      all.add(Arguments.of(chunk, 0xFF)); // every bit
      all.add(Arguments.of(chunk, 0)); // none
      all.add(Arguments.of(chunk, 1)); // compressed, but not final, on a finished chunk
    }
    return all.stream();
  }

  @ParameterizedTest(name = "chunk {0} flags {1}")
  @MethodSource("headers")
  void vtscopeReadsTheChunkWhenTheJdkDoes(int chunk, int flags) throws IOException {
    Path samples = TestRecordings.repoRoot().resolve("samples");
    byte[] first = Files.readAllBytes(samples.resolve("jdk21/pinning-synchronized.jfr"));
    byte[] second = Files.readAllBytes(samples.resolve("jdk21/submit-failed.jfr"));
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    both[(chunk == 1 ? 0 : first.length) + FLAGS] = (byte) flags;
    Path file = dir.resolve("chunk" + chunk + "-flags" + flags + ".jfr");
    Files.write(file, both);

    boolean jdkReads;
    try {
      jdkReads = !RecordingFile.readAllEvents(file).isEmpty();
    } catch (IOException | RuntimeException e) {
      jdkReads = false;
    }
    Cli.Result result = Cli.run("analyze", file.toString(), "--format", "json");
    if (jdkReads) {
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.err()).isEmpty();
      assertThat(readingWarning(result.out())).isFalse();
      var inputs = List.of(new RecordingInput("flags.jfr", List.of(file), false));
      String own = Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.VTSCOPE));
      String jdk = Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.JDK));
      assertThat(own).isEqualTo(jdk);
      assertThat(own).as("the report of the file as the JVM wrote it").isEqualTo(asWritten());
    } else {
      assertThat(result.exitCode() == 4 || readingWarning(result.out()))
          .as("refused, or salvaged with a note: " + result.exitCode() + ": " + result.err())
          .isTrue();
    }
  }

  private static String asWritten;

  /** The report of the two chunks as the JVM wrote them, made once. */
  private static synchronized String asWritten() throws IOException {
    if (asWritten == null) {
      Path samples = TestRecordings.repoRoot().resolve("samples");
      Path written = dir.resolve("as-written.jfr");
      Files.write(written, Files.readAllBytes(samples.resolve("jdk21/pinning-synchronized.jfr")));
      Files.write(
          written,
          Files.readAllBytes(samples.resolve("jdk21/submit-failed.jfr")),
          java.nio.file.StandardOpenOption.APPEND);
      asWritten =
          Reports.json(
              Reports.analyze(
                  List.of(new RecordingInput("flags.jfr", List.of(written), false)),
                  GroupBy.CULPRIT,
                  ReaderKind.VTSCOPE));
    }
    return asWritten;
  }

  /** Whether a JSON report notes that it could not read all of its recording. */
  private static boolean readingWarning(String report) {
    return Stream.of("partial-read", "damaged-data", "unreadable-file")
        .anyMatch(id -> report.contains("\"id\" : \"" + id + "\""));
  }
}
