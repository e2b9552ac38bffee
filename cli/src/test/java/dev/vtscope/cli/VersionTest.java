package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code vtscope --version}: the version, the commit built and when, and the Java it runs on. */
class VersionTest {

  private static final Pattern FIRST =
      Pattern.compile(
          "vtscope (\\S+) \\(commit ([0-9a-f]{12}|unknown), built"
              + " (\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ)\\)");

  @Test
  void namesTheVersionTheCommitAndTheBuildTime() throws Exception {
    Cli.Result result = Cli.run("--version");
    assertThat(result.exitCode()).as(result.err()).isZero();
    String[] lines = result.out().strip().split("\n");
    assertThat(lines).hasSize(2);
    Matcher first = FIRST.matcher(lines[0]);
    assertThat(first.matches()).as(lines[0]).isTrue();
    assertThat(first.group(1)).isEqualTo(VtScope.version()).doesNotContain("$");
    assertThat(Instant.parse(first.group(3))).isBeforeOrEqualTo(Instant.now());
    String head = gitHead();
    if (head != null) {
      assertThat(first.group(2)).isEqualTo(head);
    }
    assertThat(lines[1]).isEqualTo("running on Java " + Runtime.version());
  }

  /** The checkout's commit, as the build asks git for it; null without git or a checkout. */
  private static String gitHead() throws Exception {
    ProcessBuilder git =
        new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD")
            .directory(TestRecordings.repoRoot().toFile())
            .redirectErrorStream(true);
    Process process;
    try {
      process = git.start();
    } catch (java.io.IOException e) {
      return null;
    }
    String out = new String(process.getInputStream().readAllBytes()).strip();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return process.exitValue() == 0 ? out : null;
  }
}
