package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write that fails is one line and exit code 3 for every command, whether it goes to a file
 * ({@code -o}, {@code --junit}, {@code redact}) or to standard output.
 */
class WriteFailureTest {

  @TempDir Path dir;

  private static final String SAMPLE =
      TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr").toString();

  private static void assertOneLine(Cli.Result r, String line) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(r.err().lines().toList()).as(r.err()).containsExactly(line);
  }

  @Test
  void aReportToAFullDeviceIsAFailedWrite() {
    for (String format : List.of("text", "json", "markdown", "html", "openmetrics")) {
      Cli.Result r = Cli.run("analyze", SAMPLE, "--format", format, "-o", "/dev/full");
      assertOneLine(r, "vtscope analyze: cannot write /dev/full: No space left on device");
      assertThat(r.out()).isEmpty();
    }
  }

  @Test
  void aReportToAKernelFileIsAFailedWrite() {
    Cli.Result r = Cli.run("analyze", SAMPLE, "-o", "/proc/version");
    assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(r.err().lines().toList()).hasSize(1);
    assertThat(r.err()).startsWith("vtscope analyze: cannot write /proc/version: ");
  }

  @Test
  void aJUnitFileAMergedReportAndACopyThatCannotBeWrittenAreFailedWrites() throws Exception {
    Cli.Result check = Cli.run("check", SAMPLE, "--junit", "/dev/full");
    assertOneLine(check, "vtscope check: cannot write /dev/full: No space left on device");
    Path json = dir.resolve("a.json");
    assertThat(Cli.run("analyze", SAMPLE, "--format", "json", "-o", json.toString()).exitCode())
        .isZero();
    Cli.Result merge = Cli.run("merge", json.toString(), "-o", "/dev/full");
    assertOneLine(merge, "vtscope merge: cannot write /dev/full: No space left on device");
    Path readOnly = Path.of("/proc/vtscope-copy.jfr");
    Cli.Result redact = Cli.run("redact", SAMPLE, readOnly.toString());
    assertThat(redact.exitCode()).as(redact.err()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(redact.err()).startsWith("vtscope redact: cannot write " + readOnly + ": ");
    assertThat(redact.out()).isEmpty();
  }

  @Test
  void aReportReplacesTheOldOneWholeAndLeavesNoTemporaryFile() throws Exception {
    Path report = Files.writeString(dir.resolve("report.txt"), "old");
    Cli.Result r = Cli.run("analyze", SAMPLE, "-o", report.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(Files.readString(report)).startsWith("vtscope: virtual-thread pinning report");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("report.txt");
    }
  }

  /** Standard output whose every write fails as {@code why}. */
  private static CheckedWriter failingOutput(String why) {
    return new CheckedWriter(
        new Writer() {
          @Override
          public void write(char[] chars, int offset, int length) throws IOException {
            throw new IOException(why);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }

  @Test
  void standardOutputThatFailsIsOneLineAndExitCode3ForEveryCommand() {
    for (List<String> args :
        List.of(
            List.of("analyze", SAMPLE),
            List.of("check", SAMPLE),
            List.of("workloads"),
            List.of("help", "exit-codes"),
            List.of("analyze", "--help"),
            List.of("--version"))) {
      StringWriter err = new StringWriter();
      int code =
          VtScope.run(
              args.toArray(String[]::new),
              failingOutput("No space left on device"),
              new PrintWriter(err, true));
      String command = args.get(0).startsWith("-") ? "" : " " + args.get(0);
      assertThat(code).as(args + ": " + err).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
      assertThat(err.toString().lines().toList())
          .as(args.toString())
          .containsExactly(
              "vtscope" + command + ": cannot write standard output: No space left on device");
    }
  }

  @Test
  void aCommandThatFailedKeepsItsOneLineWhenStandardOutputFailedToo() {
    StringWriter err = new StringWriter();
    int code =
        VtScope.run(
            new String[] {"check", SAMPLE, "--junit", "/dev/full"},
            failingOutput("No space left on device"),
            new PrintWriter(err, true));
    assertThat(code).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(err.toString().lines().toList())
        .containsExactly("vtscope check: cannot write /dev/full: No space left on device");
  }

  @Test
  void aReaderThatWentAwayEndsTheOutputQuietlyWithTheCommandsOwnCode() {
    StringWriter err = new StringWriter();
    int passed =
        VtScope.run(
            new String[] {"analyze", SAMPLE},
            failingOutput("Broken pipe"),
            new PrintWriter(err, true));
    assertThat(passed).isZero();
    int failed =
        VtScope.run(
            new String[] {"check", SAMPLE}, failingOutput("Broken pipe"), new PrintWriter(err));
    assertThat(failed).isEqualTo(ExitCode.CHECK_FAILED.code());
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void standardOutputOnAFullDeviceIsAFailedWriteOfTheRealProcess() throws Exception {
    Cli.Result r = Cli.child(b -> b.redirectOutput(new File("/dev/full")), null, "analyze", SAMPLE);
    assertOneLine(r, "vtscope analyze: cannot write standard output: No space left on device");
  }

  @Test
  void aClosedPipeEndsTheRealProcessQuietly() throws Exception {
    Process process = Cli.childProcess("analyze", SAMPLE, "--format", "html").start();
    // the reader goes away before a byte is written, as head does after its line
    process.getInputStream().close();
    process.getOutputStream().close();
    String err = Cli.text(process.getErrorStream());
    assertThat(process.waitFor(300, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(err).isEmpty();
    assertThat(process.exitValue()).isZero();
  }
}
