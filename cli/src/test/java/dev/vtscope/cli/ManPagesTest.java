package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The man pages say what --help says, and groff renders them without a warning, as man does. */
@Tag("runtime-independent")
class ManPagesTest {

  @TempDir Path dir;

  private static String render(Path page) throws Exception {
    return render(page, page.getParent());
  }

  /** Renders from {@code dir}, where man reads pages from: {@code .so} names are relative to it. */
  private static String render(Path page, Path dir) throws Exception {
    Process groff =
        new ProcessBuilder("groff", "-man", "-Tutf8", "-ww", dir.relativize(page).toString())
            .directory(dir.toFile())
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
            "dump",
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

  /** The words of a rendered section, on one line, as they read. */
  private static String section(String text, String heading) {
    String rest = text.substring(text.indexOf("\n" + heading + "\n") + heading.length() + 2);
    java.util.regex.Matcher next =
        java.util.regex.Pattern.compile("\n[A-Z][A-Z ]+\n").matcher(rest);
    return (next.find() ? rest.substring(0, next.start()) : rest).strip().replaceAll("\\s+", " ");
  }

  @Test
  void nameIsAShortPhraseAndAliasesAreNamed() throws Exception {
    ManPages.main(new String[] {dir.toString()});
    Path man1 = dir.resolve("man1");
    String analyze = render(man1.resolve("vtscope-analyze.1"));
    assertThat(section(analyze, "NAME"))
        .isEqualTo(
            "vtscope-analyze, vtscope-analyse - Reports where virtual threads pinned their"
                + " carriers");
    assertThat(section(analyze, "SYNOPSIS"))
        .isEqualTo("vtscope analyze [OPTIONS] FILE... vtscope analyse [OPTIONS] FILE...");
    assertThat(section(analyze, "DESCRIPTION"))
        .contains("vtscope analyse is another name for vtscope analyze.");
    // man vtscope-analyse shows analyze's page
    assertThat(render(man1.resolve("vtscope-analyse.1"), dir)).isEqualTo(analyze);
    assertThat(section(render(man1.resolve("vtscope.1")), "COMMANDS"))
        .contains("analyze, analyse Reports where virtual threads pinned their carriers")
        .contains("check Checks recordings against pinning budgets, for CI");
    for (String command : List.of("explore", "check", "diff", "record", "workloads", "redact")) {
      String name = section(render(man1.resolve("vtscope-" + command + ".1")), "NAME");
      assertThat(name).startsWith("vtscope-" + command + " - ").doesNotEndWith(".");
      // one short phrase, as in the list of commands, not the description's first sentence
      assertThat(name.length()).as(name).isLessThan(80);
    }
  }
}
