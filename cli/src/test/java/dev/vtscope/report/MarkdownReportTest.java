package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Markdown reports fit a GitHub comment and keep their tables whole. */
class MarkdownReportTest {

  static List<Path> samples() {
    return TestRecordings.samples();
  }

  /** The cells of a table row: pipes not escaped with a backslash separate them. */
  private static int cells(String row) {
    int count = 0;
    for (int i = 0; i < row.length(); i++) {
      if (row.charAt(i) == '|' && (i == 0 || row.charAt(i - 1) != '\\')) {
        count++;
      }
    }
    return count;
  }

  /** Every row of every table has as many cells as its header. */
  private static void tablesAreWhole(String md) {
    int header = -1;
    for (String line : md.lines().toList()) {
      if (!line.startsWith("|")) {
        header = -1;
        continue;
      }
      if (header < 0) {
        header = cells(line);
      } else {
        assertThat(cells(line)).as(line).isEqualTo(header);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("samples")
  void everySampleGivesAWholeReportThatFitsAComment(Path sample) {
    Cli.Result r = Cli.run("analyze", "--format", "markdown", sample.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("## vtscope: virtual-thread report").contains("### ");
    assertThat(r.out().length()).isLessThan(MarkdownReport.MAX_CHARS);
    assertThat(r.err()).isEmpty();
    tablesAreWhole(r.out());
  }

  @Test
  void aLargeMergedReportStaysUnderTheLimitAndSaysWhatItLeftOut() {
    Cli.Result r =
        Cli.run(
            "analyze",
            "--format",
            "markdown",
            "--recursive",
            TestRecordings.repoRoot().resolve("samples").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().length()).isLessThan(MarkdownReport.MAX_CHARS);
    assertThat(r.out()).contains("more sites");
    tablesAreWhole(r.out());
  }

  @Test
  void codeAndTextAreEscaped() {
    assertThat(Escaping.markdownCode("a`b")).isEqualTo("``a`b``");
    assertThat(Escaping.markdownCodeCell("x|y")).isEqualTo("`x\\|y`");
    assertThat(Escaping.markdownText("a|b <i> *c*")).isEqualTo("a\\|b \\<i\\> \\*c\\*");
    // a line break is shown, never kept: it would end the table row or start a heading
    assertThat(Escaping.markdownText("line\n## break")).isEqualTo("line\\\\n## break");
    assertThat(Escaping.markdownCode("a\nb\u001Bc")).isEqualTo("`a\\nb\\u001Bc`");
    assertThat(Escaping.markdownText("**bold** __it__ @someone"))
        .isEqualTo("\\*\\*bold\\*\\* \\_\\_it\\_\\_ \\@someone");
    assertThat(Escaping.markdownText("Outer$Inner")).isEqualTo("Outer\\$Inner");
  }

  @Test
  void diffAndCheckPrintTablesToo() {
    String before =
        TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr").toString();
    String after =
        TestRecordings.repoRoot().resolve("samples/jdk21/pinning-reentrant-lock.jfr").toString();
    Cli.Result diff = Cli.run("diff", "--format", "markdown", before, after);
    assertThat(diff.exitCode()).isZero();
    assertThat(diff.out())
        .startsWith("## vtscope diff: no regression")
        .contains("| fixed | pinned | `dev.vtscope.workloads.SharedLockPinning.withMonitor` |");
    tablesAreWhole(diff.out());
    Cli.Result regressed = Cli.run("diff", "--format", "markdown", after, before);
    assertThat(regressed.exitCode()).isEqualTo(7);
    assertThat(regressed.out()).startsWith("## vtscope diff: regression").contains("| **new** |");

    Cli.Result check = Cli.run("check", "--format", "markdown", "--fail-on", "high", before);
    assertThat(check.exitCode()).isEqualTo(6);
    assertThat(check.out()).startsWith("## vtscope check: **failed**").contains("| **FAIL** |");
    tablesAreWhole(check.out());
  }
}
