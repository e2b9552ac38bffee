package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one way vtscope writes a file: whole or not at all, every failure said. */
class OutputFileTest {

  @TempDir Path dir;

  /** What the folder holds, by name: a leftover temporary file shows here. */
  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aFileIsWrittenWholeAndNothingElseIsLeft() throws Exception {
    Path report = dir.resolve("report.txt");
    OutputFile.writeText(report, out -> out.print("the report"));
    assertThat(Files.readString(report)).isEqualTo("the report");
    assertThat(names()).containsExactly("report.txt");
  }

  @Test
  void aWriteThatFailsMidwayLeavesTheOldFileAsItWasAndNoTemporaryFile() throws Exception {
    Path report = Files.writeString(dir.resolve("report.txt"), "the old report");
    assertThatThrownBy(
            () ->
                OutputFile.write(
                    report,
                    out -> {
                      out.write(new byte[1 << 20]); // a megabyte reaches the disk, then it is full
                      throw new IOException("No space left on device");
                    }))
        .isInstanceOfSatisfying(
            ExitException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE);
              assertThat(e.getMessage())
                  .isEqualTo("cannot write " + report + ": No space left on device");
            });
    assertThat(Files.readString(report)).isEqualTo("the old report");
    assertThat(names()).containsExactly("report.txt");
  }

  @Test
  void aNewFileThatFailsIsNotLeftHalfWritten() throws Exception {
    Path report = dir.resolve("new.json");
    assertThatThrownBy(
            () ->
                OutputFile.writeText(
                    report,
                    out -> {
                      out.print("{\"half\":");
                      out.flush();
                      throw new IllegalStateException("the renderer failed");
                    }))
        .isInstanceOf(IllegalStateException.class);
    assertThat(names()).isEmpty();
  }

  @Test
  void aFileWrittenByPathIsMovedInPlaceOnlyWhole() throws Exception {
    Path copy = dir.resolve("copy.jfr");
    OutputFile.writeFile(copy, file -> Files.writeString(file, "whole"));
    assertThat(Files.readString(copy)).isEqualTo("whole");
    assertThatThrownBy(
            () ->
                OutputFile.writeFile(
                    copy,
                    file -> {
                      Files.writeString(file, "half");
                      throw new IOException("Disk quota exceeded");
                    }))
        .hasMessage("cannot write " + copy + ": Disk quota exceeded");
    assertThat(Files.readString(copy)).isEqualTo("whole");
    assertThat(names()).containsExactly("copy.jfr");
  }

  @Test
  void aLinkIsFollowedAndKeptAndTheFilePermissionsStay() throws Exception {
    Path real = Files.writeString(dir.resolve("real.txt"), "old");
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-r-----"));
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), real.getFileName());
    OutputFile.writeText(link, out -> out.print("new"));
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).isEqualTo("new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(real)))
        .isEqualTo("rw-r-----");
    assertThat(names()).containsExactly("link.txt", "real.txt");
  }

  @Test
  void aDeviceThatIsFullIsAFailedWrite() {
    assertThatThrownBy(() -> OutputFile.writeText(Path.of("/dev/full"), out -> out.print("x")))
        .hasMessage("cannot write /dev/full: No space left on device");
    assertThatThrownBy(
            () -> OutputFile.writeFile(Path.of("/dev/full"), f -> Files.writeString(f, "x")))
        .hasMessage("cannot write /dev/full: No space left on device");
  }

  @Test
  void aKernelFileAFolderAndAMissingFolderAreFailedWrites() {
    assertThatThrownBy(() -> OutputFile.writeText(Path.of("/proc/version"), out -> out.print("x")))
        .isInstanceOf(ExitException.class)
        .hasMessageStartingWith("cannot write /proc/version: ");
    assertThatThrownBy(() -> OutputFile.writeText(dir, out -> out.print("x")))
        .hasMessage("cannot write " + dir + ": it is a folder");
    Path missing = dir.resolve("no-such-folder/report.txt");
    assertThatThrownBy(() -> OutputFile.writeText(missing, out -> out.print("x")))
        .hasMessage(
            "cannot write " + missing + ": the folder " + missing.getParent() + " does not exist");
  }

  @Test
  void aPipeIsWrittenStraight() throws Exception {
    Path fifo = dir.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    var read =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                // buffered: on JDK 21 a FileInputStream's readAllBytes seeks, which a pipe cannot
                try (var in =
                    new java.io.BufferedInputStream(new java.io.FileInputStream(fifo.toFile()))) {
                  return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    OutputFile.writeText(fifo, out -> out.print("through the pipe"));
    assertThat(read.get()).isEqualTo("through the pipe");
    assertThat(names()).containsExactly("fifo");
  }

  @Test
  void aWriterKeepsWhyItFailed() {
    CheckedWriter writer =
        new CheckedWriter(
            new java.io.Writer() {
              @Override
              public void write(char[] chars, int offset, int length) throws IOException {
                throw new IOException("Broken pipe");
              }

              @Override
              public void flush() {}

              @Override
              public void close() {}
            });
    writer.print("lost");
    assertThatThrownBy(writer::check).hasMessage("Broken pipe");
    assertThat(CheckedWriter.closedPipe(writer.failure())).isTrue();
    assertThat(CheckedWriter.closedPipe(new IOException("No space left on device"))).isFalse();
  }

  @Test
  void textIsWrittenAsUtf8() throws Exception {
    Path report = dir.resolve("r.md");
    OutputFile.writeText(report, out -> out.print("µs → ok"));
    assertThat(Files.readString(report, StandardCharsets.UTF_8)).isEqualTo("µs → ok");
  }
}
