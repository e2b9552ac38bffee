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
        "vtscope redact: OUTPUT is a file to write the copy to; - (standard output) is not one"
            + " (see 'vtscope redact --help')");
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
}
