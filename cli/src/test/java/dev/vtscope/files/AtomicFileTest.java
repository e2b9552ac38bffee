package dev.vtscope.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one write path: a file is there whole or not at all, whoever writes it (a command's report,
 * or the dumps {@code dump --save} keeps). OutputFileTest holds the cases of the command line.
 */
class AtomicFileTest {

  @TempDir Path dir;

  private Stream<String> names() throws IOException {
    return Files.list(dir).map(p -> p.getFileName().toString()).sorted();
  }

  @Test
  void aFailedWriteLeavesTheOldFileAndNoOther() throws Exception {
    Path kept = dir.resolve("4242.jvm.properties");
    Files.writeString(kept, "old");

    assertThatThrownBy(
            () ->
                AtomicFile.write(
                    kept,
                    out -> {
                      out.write("half".getBytes(StandardCharsets.UTF_8));
                      throw new IOException("disk full");
                    }))
        .isInstanceOf(AtomicFile.WriteFailedException.class)
        .hasMessage("cannot write " + kept + ": disk full");
    assertThat(Files.readString(kept)).isEqualTo("old");
    assertThat(names()).containsExactly("4242.jvm.properties");
  }

  @Test
  void aFileWrittenByAnotherIsMovedInWhole() throws Exception {
    Path made = Files.writeString(Files.createTempFile("threads-", ".json"), "{}");
    Path kept = dir.resolve("4242-1.json");

    AtomicFile.writeFile(
        kept,
        scratch -> Files.move(made, scratch, java.nio.file.StandardCopyOption.REPLACE_EXISTING));

    assertThat(Files.readString(kept)).isEqualTo("{}");
    assertThat(names()).containsExactly("4242-1.json");
    assertThat(made).doesNotExist();
  }

  @Test
  void aTemporaryNameNeverCutsACharacterInHalf() {
    assertThat(AtomicFile.leading("aé€😀", 3)).isEqualTo("aé");
    assertThat(AtomicFile.leading("aé€😀", 9)).isEqualTo("aé€");
    assertThat(AtomicFile.leading("aé€😀", 10)).isEqualTo("aé€😀");
  }
}
