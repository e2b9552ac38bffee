package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The man pages say what --help says, and groff renders them without a warning, as man does. */
class ManPagesTest {

  @TempDir Path dir;

  private static String render(Path page) throws Exception {
    Process groff =
        new ProcessBuilder("groff", "-man", "-Tutf8", "-ww", page.toString())
            .redirectError(ProcessBuilder.Redirect.PIPE)
            .start();
    String out = new String(groff.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(groff.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(groff.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(groff.exitValue()).as(err).isZero();
    assertThat(err).as(page.toString()).isEmpty();
    // groff marks bold and underline with backspaces: read the plain text
    return out.replaceAll(".\b", "");
  }

  @Test
  void everyCommandHasAPageWithItsOptionsAndExitCodes() throws Exception {
    ManPages.main(new String[] {dir.toString()});
    Path man1 = dir.resolve("man1");
    List<String> commands =
        List.of(
            "analyze",
            "explore",
            "check",
            "diff",
            "record",
            "jvms",
            "workloads",
            "redact",
            "completion");
    String top = render(man1.resolve("vtscope.1"));
    assertThat(top).contains("NAME").contains("COMMANDS").contains("EXIT STATUS");
    for (String command : commands) {
      Path page = man1.resolve("vtscope-" + command + ".1");
      assertThat(page).exists();
      assertThat(top).contains("vtscope-" + command + "(1)");
      String text = render(page);
      assertThat(text).contains("vtscope " + command).contains("EXIT STATUS");
      var spec =
          VtScope.commandLine(
                  new java.io.PrintWriter(new java.io.StringWriter()),
                  new java.io.PrintWriter(new java.io.StringWriter()),
                  null)
              .getSubcommands()
              .get(command)
              .getCommandSpec();
      for (var option : spec.options()) {
        if (!option.hidden()) {
          assertThat(text).as(command).contains(option.longestName());
        }
      }
    }
    assertThat(render(man1.resolve("vtscope-analyze.1")))
        .contains("jdk.VirtualThreadSubmitFailed")
        .contains("--recursive");
    assertThat(man1.resolve("vtscope-exit-codes.1")).doesNotExist();
  }
}
