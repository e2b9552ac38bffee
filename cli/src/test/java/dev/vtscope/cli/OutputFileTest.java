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

  /** Standard output, which only {@code -} writes to. */
  private final java.io.StringWriter shown = new java.io.StringWriter();

  private final java.io.PrintWriter stdout = new java.io.PrintWriter(shown);

  /** What the folder holds, by name: a leftover temporary file shows here. */
  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aFileIsWrittenWholeAndNothingElseIsLeft() throws Exception {
    Path report = dir.resolve("report.txt");
    OutputFile.writeText(report, stdout, out -> out.print("the report"));
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
                    stdout,
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
    OutputFile.writeText(link, stdout, out -> out.print("new"));
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).isEqualTo("new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(real)))
        .isEqualTo("rw-r-----");
    assertThat(names()).containsExactly("link.txt", "real.txt");
  }

  @Test
  void aDeviceThatIsFullIsAFailedWrite() {
    assertThatThrownBy(
            () -> OutputFile.writeText(Path.of("/dev/full"), stdout, out -> out.print("x")))
        .hasMessage("cannot write /dev/full: No space left on device");
    assertThatThrownBy(
            () -> OutputFile.writeFile(Path.of("/dev/full"), f -> Files.writeString(f, "x")))
        .hasMessage("cannot write /dev/full: No space left on device");
  }

  @Test
  void aKernelFileAFolderAndAMissingFolderAreFailedWrites() {
    assertThatThrownBy(
            () -> OutputFile.writeText(Path.of("/proc/version"), stdout, out -> out.print("x")))
        .isInstanceOf(ExitException.class)
        .hasMessageStartingWith("cannot write /proc/version: ");
    assertThatThrownBy(() -> OutputFile.writeText(dir, stdout, out -> out.print("x")))
        .hasMessage("cannot write " + dir + ": it is a folder");
    Path missing = dir.resolve("no-such-folder/report.txt");
    assertThatThrownBy(() -> OutputFile.writeText(missing, stdout, out -> out.print("x")))
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
    OutputFile.writeText(fifo, stdout, out -> out.print("through the pipe"));
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
  void dashIsStandardOutputAndNoFile() throws Exception {
    OutputFile.writeText(Path.of("-"), stdout, out -> out.print("shown"));
    assertThat(shown.toString()).isEqualTo("shown");
    assertThat(Path.of("-")).doesNotExist();
    assertThat(OutputFile.sameFile(Path.of("-"), Path.of("-"))).isTrue();
    assertThat(OutputFile.sameFile(Path.of("-"), dir.resolve("-"))).isFalse();
  }

  @Test
  void everyCommandWithOTakesDashForStandardOutputAndRefusesAnEmptyName() throws Exception {
    String sample =
        dev.vtscope.testing.TestRecordings.repoRoot()
            .resolve("samples/jdk21/pinning-synchronized.jfr")
            .toString();
    Path json = dir.resolve("a.json");
    assertThat(
            dev.vtscope.testing.Cli.run(
                    "analyze", sample, "--format", "json", "-o", json.toString())
                .exitCode())
        .isZero();
    List<List<String>> commands =
        List.of(
            List.of("analyze", sample),
            List.of("check", sample),
            List.of("diff", sample, sample),
            List.of("merge", json.toString()));
    for (List<String> command : commands) {
      dev.vtscope.testing.Cli.Result plain =
          dev.vtscope.testing.Cli.run(command.toArray(String[]::new));
      List<String> dashed = new java.util.ArrayList<>(command);
      dashed.addAll(List.of("-o", "-"));
      dev.vtscope.testing.Cli.Result dash =
          dev.vtscope.testing.Cli.run(dashed.toArray(String[]::new));
      assertThat(dash.exitCode()).as(dash.err()).isEqualTo(plain.exitCode());
      assertThat(dash.out()).as(command.get(0)).isNotEmpty().isEqualTo(plain.out());
      assertThat(Path.of("-")).doesNotExist();
      List<String> empty = new java.util.ArrayList<>(command);
      empty.addAll(List.of("-o", ""));
      dev.vtscope.testing.Cli.Result none =
          dev.vtscope.testing.Cli.run(empty.toArray(String[]::new));
      assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE.code());
      assertThat(none.err().lines().toList())
          .containsExactly(
              "vtscope "
                  + command.get(0)
                  + ": --output takes a file name, not an empty one (see 'vtscope "
                  + command.get(0)
                  + " --help')");
    }
    // the JUnit file on standard output, the report in a file; not both on standard output
    Path report = dir.resolve("check.txt");
    dev.vtscope.testing.Cli.Result junit =
        dev.vtscope.testing.Cli.run("check", sample, "--junit", "-", "-o", report.toString());
    assertThat(junit.out()).startsWith("<?xml");
    assertThat(Files.readString(report)).startsWith("vtscope check:");
    dev.vtscope.testing.Cli.Result both =
        dev.vtscope.testing.Cli.run("check", sample, "--junit", "-");
    assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(both.err())
        .startsWith(
            "vtscope check: --junit - and the report both go to standard output: give one of"
                + " them a file (-o)");
  }

  @Test
  void aNameNearTheLongestAFileSystemTakesIsWrittenToo() throws Exception {
    // 250 bytes: the hidden temporary name beside it must be no longer than 255
    Path ascii = dir.resolve("r".repeat(246) + ".txt");
    OutputFile.writeText(ascii, stdout, out -> out.print("long"));
    assertThat(Files.readString(ascii)).isEqualTo("long");
    assertThat(names()).containsExactly(ascii.getFileName().toString());
  }

  @Test
  void aLongNameOfCharactersOfTwoBytesIsWrittenToo() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        "UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding")),
        "file names are not UTF-8 here");
    Path accented = dir.resolve("é".repeat(123) + ".txt");
    assertThat(accented.getFileName().toString().getBytes(StandardCharsets.UTF_8)).hasSize(250);
    OutputFile.writeFile(accented, file -> Files.writeString(file, "longer"));
    assertThat(Files.readString(accented)).isEqualTo("longer");
    assertThat(names()).containsExactly(accented.getFileName().toString());
  }

  @Test
  void textIsWrittenAsUtf8() throws Exception {
    Path report = dir.resolve("r.md");
    OutputFile.writeText(report, stdout, out -> out.print("µs → ok"));
    assertThat(Files.readString(report, StandardCharsets.UTF_8)).isEqualTo("µs → ok");
  }
}
