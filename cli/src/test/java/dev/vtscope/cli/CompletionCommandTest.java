package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The completion scripts complete what vtscope has, in a real bash. */
class CompletionCommandTest {

  @TempDir Path dir;

  /** Runs bash with the script sourced and returns what it completes for {@code words}. */
  private String complete(Path script, String words) throws Exception {
    String program =
        "source "
            + script
            + "; COMP_WORDS=("
            + words
            + "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE=\"${COMP_WORDS[*]}\";"
            + " COMP_POINT=${#COMP_LINE}; _complete_vtscope vtscope 2>/dev/null; printf '%s\\n'"
            + " \"${COMPREPLY[@]}\"";
    // in the test's folder, where a file could be offered instead of a value
    Process bash =
        new ProcessBuilder("bash", "-c", program)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void bashCompletesCommandsOptionsAndValues() throws Exception {
    Cli.Result r = Cli.run("completion", "bash");
    assertThat(r.exitCode()).isZero();
    Path script = dir.resolve("vtscope.bash");
    Files.writeString(script, r.out());

    assertThat(complete(script, "vtscope an")).contains("analyze").contains("analyse");
    assertThat(complete(script, "vtscope analyze --for")).contains("--format");
    assertThat(complete(script, "vtscope analyze --format ''")).contains("json").contains("text");
    assertThat(complete(script, "vtscope record --work")).contains("--workload");
    assertThat(complete(script, "vtscope record --pi")).contains("--pid");
    assertThat(complete(script, "vtscope jv")).contains("jvms");
    assertThat(complete(script, "vtscope du")).contains("dump");
    assertThat(complete(script, "vtscope dump --ev")).contains("--every");
    assertThat(complete(script, "vtscope dump --format ''"))
        .contains("json", "markdown", "html")
        .doesNotContain("openmetrics")
        .doesNotContain("otlp-json");
  }

  @Test
  void optionValuesAreOfferedAsTheyAreTyped() throws Exception {
    Path script = dir.resolve("vtscope.bash");
    Files.writeString(script, Cli.run("completion", "bash").out());

    assertThat(complete(script, "vtscope analyze --format ''").lines())
        .containsExactly("text", "json", "markdown", "html", "openmetrics", "otlp-json");
    assertThat(complete(script, "vtscope analyze --group-by t").lines())
        .containsExactly("top-frame");
    assertThat(complete(script, "vtscope analyse --reader ''").lines())
        .containsExactly("vtscope", "jdk");
    assertThat(complete(script, "vtscope check --fail-on ''").lines())
        .containsExactly("info", "low", "medium", "high", "none");
    assertThat(complete(script, "vtscope diff --format m").lines()).containsExactly("markdown");
  }

  @Test
  void workloadsTheirVariantsAndEveryHelpTopicAreOffered() throws Exception {
    Path script = dir.resolve("vtscope.bash");
    Files.writeString(script, Cli.run("completion", "bash").out());

    assertThat(complete(script, "vtscope record --workload ''").lines())
        .contains("pinning", "pinning-per-task", "class-init", "poller-deadlock")
        .doesNotHaveDuplicates();
    assertThat(complete(script, "vtscope record --workload class").lines())
        .containsExactly("class-init", "class-init-deadlock");
    // the variants of the workload named, else every workload's
    assertThat(complete(script, "vtscope record --workload pinning --variant ''").lines())
        .containsExactly("synchronized", "synchronized-method", "reentrant-lock", "none");
    assertThat(complete(script, "vtscope record --workload class-init --variant ''").lines())
        .containsExactly("lazy", "eager");
    assertThat(complete(script, "vtscope record --variant ''").lines())
        .contains("synchronized", "reentrant-lock", "none", "upcall", "eager")
        .doesNotHaveDuplicates();
    assertThat(complete(script, "vtscope record --variant ree").lines())
        .containsExactly("reentrant-lock");
    assertThat(complete(script, "vtscope help ''").lines())
        .contains("analyze", "record", "completion", "exit-codes")
        .doesNotContain("help")
        .doesNotHaveDuplicates();
    assertThat(complete(script, "vtscope help exi").lines()).containsExactly("exit-codes");

    String fish = Cli.run("completion", "fish").out();
    assertThat(fish)
        .containsPattern(
            "'__fish_seen_subcommand_from record' -l workload -x -a 'pinning [a-z -]*'")
        .containsPattern("'__fish_seen_subcommand_from record' -l variant -x -a '[a-z -]*reentrant")
        .containsPattern("'__fish_seen_subcommand_from help' -a 'analyze [a-z -]*exit-codes'");
  }

  /**
   * A pid is one of a running JVM of this user's, as vtscope jvms lists them (this test's JVM is
   * one), never a file name; in fish neither, as its options that take no file say so.
   */
  @Test
  void aPidIsARunningJvmsNeverAFileName() throws Exception {
    Path script = dir.resolve("vtscope.bash");
    String bash = Cli.run("completion", "bash").out();
    Files.writeString(script, bash);
    Files.writeString(dir.resolve("4242.txt"), "a file whose name could pass for a pid");
    String own = Long.toString(ProcessHandle.current().pid());

    for (String command : new String[] {"watch", "record"}) {
      assertThat(complete(script, "vtscope " + command + " --pid ''").lines())
          .contains(own)
          .allMatch(pid -> pid.matches("\\d+"));
      assertThat(complete(script, "vtscope " + command + " --pid " + own).lines())
          .containsExactly(own);
    }
    // no file names where the script offers nothing, as in zsh, which cannot turn that off
    assertThat(bash).doesNotContain("-o default vtscope");
    String fish = Cli.run("completion", "fish").out();
    assertThat(fish)
        .contains("'__fish_seen_subcommand_from watch' -l pid -x -d")
        .contains("'__fish_seen_subcommand_from watch' -l out -r -F -d");
  }

  /** What completion offers is what the command accepts, for every option that offers values. */
  @Test
  void everyOfferedValueIsAccepted() {
    picocli.CommandLine all =
        VtScope.commandLine(
            new java.io.PrintWriter(new java.io.StringWriter()),
            new java.io.PrintWriter(new java.io.StringWriter()),
            null);
    int offered = 0;
    for (var entry : all.getSubcommands().entrySet()) {
      for (var option : entry.getValue().getCommandSpec().options()) {
        if (option.completionCandidates() == null || option.arity().max() == 0) {
          continue;
        }
        for (String value : option.completionCandidates()) {
          picocli.CommandLine fresh =
              VtScope.commandLine(
                  new java.io.PrintWriter(new java.io.StringWriter()),
                  new java.io.PrintWriter(new java.io.StringWriter()),
                  entry.getKey());
          assertThat(value).as(option.longestName()).isEqualTo(value.toLowerCase(Locale.ROOT));
          try {
            // the command's positional argument: a file, or dump's pid
            String positional = entry.getKey().equals("dump") ? "4242" : "x.jfr";
            fresh.parseArgs(entry.getKey(), option.longestName(), value, positional);
          } catch (picocli.CommandLine.MissingParameterException e) {
            // the value was read; another argument the command needs was not given
          }
          offered++;
        }
      }
    }
    assertThat(offered).isGreaterThan(20);
  }

  @Test
  void fishNamesEverySubcommandAndItsOptions() {
    Cli.Result r = Cli.run("completion", "fish");
    assertThat(r.exitCode()).isZero();
    for (String command : new String[] {"analyze", "check", "diff", "record", "redact"}) {
      assertThat(r.out()).contains("-n __fish_use_subcommand -a " + command + " -d ");
    }
    assertThat(r.out())
        .containsPattern(
            "'__fish_seen_subcommand_from analyze analyse' -l format -x -a 'text json[a-z -]*'")
        .contains("-o cp")
        // a hidden command is not offered as a command, only to help
        .doesNotContain("-n __fish_use_subcommand -a exit-codes");
  }

  @Test
  void anUnknownShellIsAUsageError() {
    Cli.Result r = Cli.run("completion", "powershell");
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.err()).contains("powershell").doesNotContain("Exception");
  }
}
