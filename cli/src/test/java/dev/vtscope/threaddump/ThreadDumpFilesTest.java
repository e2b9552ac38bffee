package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A dump's format told from its first bytes; what is no dump refused in one line. */
class ThreadDumpFilesTest {

  static Stream<String> samples() {
    return Stream.of("dump-to-file.json", "dump-to-file.txt", "thread-print.txt", "jstack.txt")
        .flatMap(Samples::named)
        .filter(p -> !(p.contains("in-process")));
  }

  @ParameterizedTest
  @MethodSource("samples")
  void everySampleIsToldByItsStart(String path) throws Exception {
    ThreadDump dump;
    try (InputStream in = Samples.open(path)) {
      dump = ThreadDumpFiles.read(in);
    }
    DumpFormat expected =
        path.endsWith(".json")
            ? DumpFormat.JSON
            : path.endsWith("dump-to-file.txt") ? DumpFormat.PLAIN_TEXT : DumpFormat.THREAD_PRINT;
    assertThat(dump.format()).isEqualTo(expected);
    assertThat(dump.feature()).isEqualTo(Samples.feature(path));
    assertThat(dump.threads()).isNotEmpty();
  }

  @Test
  void whatIsNoDumpIsRefusedInOneLine() {
    for (byte[] input :
        new byte[][] {
          {'F', 'L', 'R', 0, 0, 2, 0, 1},
          new byte[0],
          "{\"recording\": 1}".getBytes(StandardCharsets.UTF_8),
          "hello\nworld\n".getBytes(StandardCharsets.UTF_8),
          "12\nnot an instant\n21\n".getBytes(StandardCharsets.UTF_8)
        }) {
      assertThatThrownBy(() -> ThreadDumpFiles.read(new ByteArrayInputStream(input)))
          .isInstanceOf(NotAThreadDumpException.class)
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").isNotBlank());
    }
    assertThatThrownBy(
            () -> ThreadDumpFiles.read(new ByteArrayInputStream(new byte[] {'F', 'L', 'R', 0})))
        .hasMessageContaining("JFR recording");
  }

  @Test
  void aJsonDumpCutShortReadsAsIncomplete() throws IOException, NotAThreadDumpException {
    try (InputStream in = Samples.open("jdk25/escape-name/dump-to-file.json")) {
      ThreadDump dump = ThreadDumpFiles.read(in);
      assertThat(dump.complete()).isFalse();
      assertThat(dump.notes()).isNotEmpty();
    }
  }
}
