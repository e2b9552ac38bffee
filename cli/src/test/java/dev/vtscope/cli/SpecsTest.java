package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.GroupBy;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.testing.Cli;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The commands' options are declared in code ({@link Specs}); what picocli's annotations gave by
 * themselves must hold all the same: values reach the command's fields, each parse starts from the
 * fields' first values, defaults show in the help, and parameters without which a command cannot
 * run are required.
 */
class SpecsTest {

  private static CommandLine commandLine(String command) {
    return VtScope.commandLine(
        new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), command);
  }

  private static <T> T value(CommandSpec spec, String option) {
    return spec.findOption(option).getValue();
  }

  @Test
  void valuesReachTheFieldsAndEachParseStartsFromTheirFirstValues() {
    CommandLine vtscope = commandLine("analyze");
    CommandSpec analyze = vtscope.getSubcommands().get("analyze").getCommandSpec();

    vtscope.parseArgs(
        "analyze",
        "--top",
        "3",
        "--group-by",
        "top-frame",
        "--reader",
        "JDK",
        "--app-package",
        "com.acme,org.example",
        "-cp",
        "a.jar" + File.pathSeparator + "lib",
        "r.jfr",
        "s.jfr");
    assertThat(analyze.positionalParameters().get(0).<List<Path>>getValue())
        .containsExactly(Path.of("r.jfr"), Path.of("s.jfr"));
    assertThat(SpecsTest.<Integer>value(analyze, "--top")).isEqualTo(3);
    assertThat(SpecsTest.<GroupBy>value(analyze, "--group-by")).isEqualTo(GroupBy.TOP_FRAME);
    assertThat(SpecsTest.<ReaderKind>value(analyze, "--reader")).isEqualTo(ReaderKind.JDK);
    assertThat(SpecsTest.<List<String>>value(analyze, "--app-package"))
        .containsExactly("com.acme", "org.example");
    assertThat(SpecsTest.<List<Path>>value(analyze, "--classpath"))
        .containsExactly(Path.of("a.jar"), Path.of("lib"));

    vtscope.parseArgs("analyze", "r.jfr");
    assertThat(SpecsTest.<Integer>value(analyze, "--top")).isEqualTo(10);
    assertThat(SpecsTest.<GroupBy>value(analyze, "--group-by")).isEqualTo(GroupBy.CULPRIT);
    assertThat(SpecsTest.<ReaderKind>value(analyze, "--reader")).isEqualTo(ReaderKind.VTSCOPE);
    assertThat(SpecsTest.<List<String>>value(analyze, "--app-package")).isEmpty();
    assertThat(SpecsTest.<List<Path>>value(analyze, "--classpath")).isEmpty();
  }

  /** Every command that analyses recordings takes the same analysis options, from one mixin. */
  @Test
  void everyAnalysingCommandTakesTheSameAnalysisOptions() {
    CommandLine all = commandLine(null);
    List<String> analysis = List.of("--classpath", "--app-package", "--reader");
    for (String name : List.of("analyze", "record", "watch", "explore", "check", "diff")) {
      CommandSpec spec = all.getSubcommands().get(name).getCommandSpec();
      for (String option : analysis) {
        assertThat(spec.findOption(option)).as(name + " " + option).isNotNull();
      }
      // check and diff are about culprits: their budgets and matches are made of them
      boolean grouped = !name.equals("check") && !name.equals("diff");
      assertThat(spec.findOption("--group-by") != null).as(name + " --group-by").isEqualTo(grouped);
    }
    for (String name : List.of("analyze", "record", "merge", "check", "diff")) {
      CommandSpec spec = all.getSubcommands().get(name).getCommandSpec();
      assertThat(spec.findOption("--format")).as(name + " --format").isNotNull();
      assertThat(spec.findOption("-o")).as(name + " -o").isNotNull();
    }
  }

  @Test
  void aFieldsFirstValueIsTheDefaultTheHelpShows() {
    assertThat(Cli.run("diff", "--help").out()).contains("(default: 10.0)");
  }

  @Test
  void aCommandWithoutTheParametersItNeedsIsAUsageError() {
    String[][] cases = {
      {"analyze", "Missing required parameter: 'FILE'"},
      {"check", "Missing required parameter: 'FILE'"},
      {"explore", "Missing required parameter: 'FILE'"},
      {"diff", "Missing required parameters: 'BEFORE', 'AFTER'"},
      {"merge", "Missing required parameter: 'REPORT'"},
      {"redact", "Missing required parameters: 'INPUT', 'OUTPUT'"},
      {"completion", "Missing required parameter: 'SHELL'"},
    };
    for (String[] c : cases) {
      Cli.Result r = Cli.run(c[0]);
      assertThat(r.exitCode()).as(c[0]).isEqualTo(ExitCode.USAGE.code());
      assertThat(r.err()).as(c[0]).startsWith("vtscope " + c[0] + ": " + c[1]);
    }
  }

  @Test
  void everyCommandHasTheStandardHelpOptionsLast() {
    CommandLine all = commandLine(null);
    all.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (sub.getCommandSpec().usageMessage().hidden() || name.equals("help")) {
                return;
              }
              List<String> names =
                  sub.getCommandSpec().options().stream().map(o -> o.longestName()).toList();
              assertThat(names.subList(names.size() - 2, names.size()))
                  .as(name)
                  .containsExactly("--help", "--version");
            });
  }
}
