package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A mistyped command, option or value is one line on stderr, in vtscope's words, that says what was
 * probably meant and where the help is, with the exit code for bad usage.
 */
class UsageErrorTest {

  private static void assertUsageError(Cli.Result result, String line) {
    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.USAGE.code());
    assertThat(result.out()).isEmpty();
    assertThat(result.err().lines().toList()).containsExactly(line);
  }

  /**
   * An error line may name what the user did not choose (a file found in a folder) or typed by
   * mistake: its control characters are shown, never sent to the terminal, and it stays one line.
   */
  @Test
  void anErrorLineShowsControlCharactersEscaped(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    Cli.Result option = Cli.run("analyze", "--form\u001B[2Jat", "x.jfr");
    java.nio.file.Path folder = java.nio.file.Files.createDirectories(dir.resolve("recordings"));
    java.nio.file.Files.createSymbolicLink(
        folder.resolve("evil\u001B]0;pwned\u0007\n## x.jfr"), dir.resolve("nowhere.jfr"));
    Cli.Result file = Cli.run("analyze", folder.toString());
    for (Cli.Result r : List.of(option, file)) {
      assertThat(r.exitCode()).as(r.err()).isIn(2, 3);
      assertThat(r.err().lines()).as(r.err()).hasSize(1);
      assertThat(r.err()).startsWith("vtscope analyze: ").contains("\\u001B");
      assertThat(r.err().chars().filter(c -> c < 0x20 && c != '\n')).as(r.err()).isEmpty();
    }
    assertThat(file.err()).contains("\\u0007\\n## x.jfr");
  }

  @Test
  void standardInputIsReadOnce() {
    String twice = "- (standard input) is given more than once; it can be read once: give it once";
    assertUsageError(
        Cli.run("analyze", "-", "-"),
        "vtscope analyze: " + twice + " (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("diff", "-", "-"), "vtscope diff: " + twice + " (see 'vtscope diff --help')");
  }

  @Test
  void standardInputThatIsATerminalOrClosedIsRefusedAtOnce(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path fds = java.nio.file.Files.createDirectories(dir.resolve("fd"));
    java.nio.file.Path jdk = java.nio.file.Files.createDirectories(dir.resolve("jdk"));
    java.nio.file.Path zero = fds.resolve("0");
    assertThat(StandardInput.problem(zero, jdk)).contains("which is closed");
    java.nio.file.Files.createSymbolicLink(zero, java.nio.file.Path.of("/dev/pts/3"));
    assertThat(StandardInput.problem(zero, jdk))
        .isEqualTo(
            "- reads a recording from standard input, which is a terminal: give a file, or send"
                + " one in (< app.jfr, or a pipe)");
    java.nio.file.Files.delete(zero);
    // where a closed standard input's number goes: the first file the JVM opens
    java.nio.file.Files.createSymbolicLink(zero, jdk.resolve("lib/modules"));
    assertThat(StandardInput.problem(zero, jdk)).contains("which is closed");
    java.nio.file.Files.delete(zero);
    java.nio.file.Files.createSymbolicLink(zero, java.nio.file.Path.of("pipe:[4242]"));
    assertThat(StandardInput.problem(zero, jdk)).isNull();
    assertThat(StandardInput.problem(dir.resolve("no-proc/0"), jdk)).isNull();
    // a real process whose standard input the shell closed
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/fd")), "no /proc");
    Process closed =
        new ProcessBuilder(
                "sh",
                "-c",
                "exec \"$0\" -cp \"$1\" dev.vtscope.cli.VtScope analyze - <&-",
                dev.vtscope.testing.TestRecordings.currentJava().toString(),
                System.getProperty("java.class.path"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    String err = Cli.text(closed.getErrorStream());
    assertThat(closed.waitFor()).as(err).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.lines().toList())
        .containsExactly(
            "vtscope analyze: - reads a recording from standard input, which is closed: give a"
                + " file, or send one in (< app.jfr, or a pipe) (see 'vtscope analyze --help')");
  }

  @Test
  void everyUsageErrorSaysWhereTheHelpIsAndANumberIsAskedForPlainly() {
    assertUsageError(
        Cli.run("analyze", "x.jfr", "--top", "many"),
        "vtscope analyze: --top takes a whole number, not 'many' (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("diff", "a.jfr", "b.jfr", "--tolerance", "some"),
        "vtscope diff: --tolerance takes a number, not 'some' (see 'vtscope diff --help')");
    assertUsageError(
        Cli.run("diff", "a.jfr", "b.jfr", "--tolerance", "-1"),
        "vtscope diff: --tolerance takes a percentage from 0 to 999 (see 'vtscope diff --help')");
  }

  @Test
  void aTopOfNoSitesIsRefused() {
    assertUsageError(
        Cli.run("analyze", "x.jfr", "--top", "0"),
        "vtscope analyze: --top must be 1 or more, not 0 (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("watch", "--top", "-1", "repo"),
        "vtscope watch: --top must be 1 or more, not -1 (see 'vtscope watch --help')");
  }

  @Test
  void anOutputFileInAFolderThatIsNotThereSaysSo() {
    String sample =
        dev.vtscope.testing.TestRecordings.repoRoot()
            .resolve("samples/jdk21/pinning-synchronized.jfr")
            .toString();
    Cli.Result r = Cli.run("analyze", sample, "-o", "/nonexistent-folder/x.txt");
    assertThat(r.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(r.err().strip())
        .isEqualTo(
            "vtscope analyze: cannot write /nonexistent-folder/x.txt: the folder"
                + " /nonexistent-folder does not exist");
  }

  @Test
  void aMistypedOptionGetsTheNearestOption() {
    assertUsageError(
        Cli.run("analyze", "x.jfr", "--fromat", "json"),
        "vtscope analyze: unknown option '--fromat'; did you mean '--format'?"
            + " (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("analyze", "x.jfr", "--formt", "json"),
        "vtscope analyze: unknown option '--formt'; did you mean '--format'?"
            + " (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("analyse", "--fromat=json", "x.jfr"),
        "vtscope analyze: unknown option '--fromat'; did you mean '--format'?"
            + " (see 'vtscope analyze --help')");
    assertThat(Cli.run("analyze", "--rec", "fleet/").err()).contains("did you mean '--recursive'?");
    assertThat(Cli.run("check", "--fial-on", "low", "x.jfr").err())
        .startsWith("vtscope check: unknown option '--fial-on'; did you mean '--fail-on'?");
  }

  @Test
  void anOptionLikeNoneGetsNoGuess() {
    assertUsageError(
        Cli.run("analyze", "--zzzzzz", "x.jfr"),
        "vtscope analyze: unknown option '--zzzzzz' (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("analyze", "-x", "x.jfr"),
        "vtscope analyze: unknown option '-x' (see 'vtscope analyze --help')");
  }

  @Test
  void aMistypedCommandGetsTheNearestCommandOnce() {
    assertUsageError(
        Cli.run("analize", "x.jfr"),
        "vtscope: unknown command 'analize'; did you mean 'analyze'? (see 'vtscope --help')");
    assertUsageError(
        Cli.run("chek", "x.jfr"),
        "vtscope: unknown command 'chek'; did you mean 'check'? (see 'vtscope --help')");
    assertUsageError(
        Cli.run("help", "analize"),
        "vtscope: unknown command 'analize'; did you mean 'analyze'? (see 'vtscope --help')");
    assertUsageError(
        Cli.run("frobnicate"), "vtscope: unknown command 'frobnicate' (see 'vtscope --help')");
  }

  @Test
  void argumentsACommandDoesNotTakeAreNamed() {
    assertUsageError(
        Cli.run("workloads", "extra"),
        "vtscope workloads: unexpected argument 'extra' (see 'vtscope workloads --help')");
  }

  @Test
  void aValueThatIsNotAChoiceListsTheChoicesAsTyped() {
    assertUsageError(
        Cli.run("analyze", "--format", "jsno", "x.jfr"),
        "vtscope analyze: --format takes text, json, markdown, html, openmetrics or otlp-json, not 'jsno';"
            + " did you mean"
            + " 'json'? (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("analyze", "--group-by", "topframe", "x.jfr"),
        "vtscope analyze: --group-by takes culprit, stack, top-frame or reason, not 'topframe';"
            + " did you mean 'top-frame'? (see 'vtscope analyze --help')");
    assertUsageError(
        Cli.run("check", "--format", "html", "x.jfr"),
        "vtscope check: --format takes text, json or markdown, not 'html' (see 'vtscope check"
            + " --help')");
  }

  @Test
  void nearestNamesCountsASwapAsOneSlip() {
    List<List<String>> options = List.of(List.of("-o", "--output"), List.of("--format"));
    assertThat(NearestNames.distance("fromat", "format")).isEqualTo(1);
    assertThat(NearestNames.to("--fromat", options)).containsExactly("--format");
    assertThat(NearestNames.to("--outptu", options)).containsExactly("--output");
    assertThat(NearestNames.to("-p", options)).isEmpty();
    // a command and its alias are one suggestion: the name the typo is nearest to, else the first
    List<List<String>> commands = List.of(List.of("analyze", "analyse"), List.of("diff"));
    assertThat(NearestNames.to("analize", commands)).containsExactly("analyze");
    assertThat(NearestNames.to("analyes", commands)).containsExactly("analyse");
  }
}
