package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vtscope redact}: where the copy can and cannot go, each refusal in one line. */
class RedactCommandTest {

  @TempDir Path dir;

  private static final String SAMPLE =
      TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr").toString();

  private static void assertRefused(Cli.Result r, ExitCode code, String line) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(code.code());
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().toList()).containsExactly(line);
  }

  @Test
  void writesACopyThatAnalysesLikeTheOriginal() throws Exception {
    Path copy = dir.resolve("copy.jfr");
    Cli.Result r = Cli.run("redact", SAMPLE, copy.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().strip()).isEqualTo("wrote " + copy);
    assertThat(Cli.run("analyze", "--format", "json", copy.toString()).exitCode()).isZero();
  }

  @Test
  void aCopyIntoAFolderThatIsNotThereBlamesTheFolderNotTheRecording() {
    Path copy = dir.resolve("no-such-folder/copy.jfr");
    assertRefused(
        Cli.run("redact", SAMPLE, copy.toString()),
        ExitCode.INPUT_UNREADABLE,
        "vtscope redact: cannot write "
            + copy
            + ": the folder "
            + copy.getParent()
            + " does not exist");
  }

  @Test
  void standardOutputAndAnExistingFileAreRefused() throws Exception {
    assertRefused(
        Cli.run("redact", SAMPLE, "-"),
        ExitCode.USAGE,
        "vtscope redact: OUTPUT is a file to write the copy to; - (standard output) is not one:"
            + " name /dev/stdout to write the recording there (see 'vtscope redact --help')");
    Path existing = Files.writeString(dir.resolve("existing.jfr"), "kept");
    assertRefused(
        Cli.run("redact", SAMPLE, existing.toString()),
        ExitCode.USAGE,
        "vtscope redact: "
            + existing
            + ": already exists; vtscope never overwrites a file, choose another name"
            + " (see 'vtscope redact --help')");
    assertThat(Files.readString(existing)).isEqualTo("kept");
  }

  @Test
  void aDeviceIsWrittenToAndTheLineSayingSoGoesToStandardError() throws Exception {
    Path copy = dir.resolve("copy.jfr");
    assertThat(Cli.run("redact", SAMPLE, copy.toString()).exitCode()).isZero();
    Path stdout = dir.resolve("stdout.jfr");
    Cli.Result r =
        Cli.child(b -> b.redirectOutput(stdout.toFile()), null, "redact", SAMPLE, "/dev/stdout");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err().strip()).isEqualTo("wrote /dev/stdout");
    assertThat(Files.readAllBytes(stdout)).isEqualTo(Files.readAllBytes(copy));
    Cli.Result nowhere = Cli.run("redact", SAMPLE, "/dev/null");
    assertThat(nowhere.exitCode()).as(nowhere.err()).isZero();
    assertThat(nowhere.out()).isEmpty();
  }

  /** A named pipe is read as standard input is: the one way vtscope reads a recording. */
  @Test
  void aNamedPipeIsCopiedAndAFolderIsRefused() throws Exception {
    Path fifo = dir.resolve("in.jfr");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor() == 0, "no mkfifo");
    var writer =
        java.util.concurrent.CompletableFuture.runAsync(
            () -> {
              try (var out = new java.io.FileOutputStream(fifo.toFile())) {
                out.write(Files.readAllBytes(Path.of(SAMPLE)));
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    Path copy = dir.resolve("copy.jfr");
    Cli.Result r = Cli.run("redact", fifo.toString(), copy.toString());
    writer.get();
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(Cli.run("analyze", copy.toString()).exitCode()).isZero();
    assertRefused(
        Cli.run("redact", dir.toString(), dir.resolve("other.jfr").toString()),
        ExitCode.INPUT_UNREADABLE,
        "vtscope redact: " + dir + ": a folder; redact copies one recording: name its file");
  }
}
