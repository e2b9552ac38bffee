package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Help reads well at 80 columns, and the exit codes are listed once. */
class HelpTest {

  private static final List<String> COMMANDS =
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

  /** Dotted names (jdk.VirtualThreadPinned, com.acme) in the descriptions of a command. */
  private static java.util.Set<String> dottedNames(picocli.CommandLine.Model.CommandSpec spec) {
    java.util.regex.Pattern name =
        java.util.regex.Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)+");
    java.util.Set<String> names = new java.util.TreeSet<>();
    java.util.List<String> texts = new java.util.ArrayList<>();
    texts.addAll(java.util.List.of(spec.usageMessage().description()));
    spec.options().forEach(o -> texts.addAll(java.util.List.of(o.description())));
    spec.positionalParameters().forEach(p -> texts.addAll(java.util.List.of(p.description())));
    for (String text : texts) {
      java.util.regex.Matcher m = name.matcher(text);
      while (m.find()) {
        names.add(m.group());
      }
    }
    return names;
  }

  @Test
  void everyLineFitsAndNoNameIsCut() {
    picocli.CommandLine all =
        VtScope.commandLine(
            new java.io.PrintWriter(new java.io.StringWriter()),
            new java.io.PrintWriter(new java.io.StringWriter()),
            null);
    for (String command : COMMANDS) {
      String help = Cli.run(command, "--help").out();
      assertThat(help.lines())
          .as(command)
          .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
      java.util.Set<String> names = dottedNames(all.getSubcommands().get(command).getCommandSpec());
      for (String dotted : names) {
        assertThat(help).as(command + ": " + dotted + " on one line").contains(dotted);
      }
    }
    assertThat(dottedNames(all.getSubcommands().get("analyze").getCommandSpec()))
        .contains("jdk.VirtualThreadSubmitFailed", "com.acme");
    assertThat(Cli.run("analyze", "--help").out())
        .contains("Usage: vtscope analyze [OPTIONS] FILE...");
  }

  @Test
  void examplesKeepTheirIndentAndAreNotCut() {
    assertThat(Cli.run("record", "--help").out().lines())
        .contains(
            "  vtscope record --workload pinning --variant reentrant-lock -- --tasks 200",
            "  vtscope record --pid 4242 --duration 30s");
    assertThat(Cli.run("completion", "--help").out().lines())
        .contains("      source <(vtscope completion zsh)");
  }

  @Test
  void theTopLevelHelpListsEachCommandOnOneLine() {
    String help = Cli.run("--help").out();
    assertThat(help.lines())
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80))
        .contains(
            "  analyze, analyse  Reports where virtual threads pinned their carriers",
            "  check             Checks recordings against pinning budgets, for CI");
    for (String command : COMMANDS) {
      assertThat(help).containsPattern("\\n  " + command + "[ ,][^\\n]*\\n  [a-z]");
      // a command's own help starts with its usage; the one-line summary is for the list
      assertThat(Cli.run(command, "--help").out()).startsWith("Usage: vtscope " + command);
    }
  }

  @Test
  void theExitCodeTableIsInTheTopLevelHelpAndItsOwnTopicOnly() {
    String table = "  6  check: a budget was exceeded";
    assertThat(Cli.run("--help").out()).contains(table);
    assertThat(Cli.run("help", "exit-codes").out()).contains(table);
    for (String command : COMMANDS) {
      String help = Cli.run(command, "--help").out();
      assertThat(help)
          .as(command)
          .doesNotContain(table)
          .contains("Exit codes: vtscope help exit-codes");
    }
    Cli.Result codes = Cli.run("exit-codes");
    assertThat(codes.exitCode()).isZero();
    assertThat(codes.out()).contains(table);
  }

  /** explore has no --format: its help never speaks of one. */
  @Test
  void exploresHelpNamesNoOptionItDoesNotHave() {
    assertThat(Cli.run("explore", "--help").out()).contains("--quiet").doesNotContain("--format");
    assertThat(Cli.run("analyze", "--help").out()).contains("with --format json.)");
  }

  /** A meaning too long for its line goes on under the meanings, never at the line's start. */
  @Test
  void aLongMeaningOfTheExitCodeTableWrapsUnderItself() {
    String help = Cli.run("--help").out();
    List<String> rows =
        help.substring(help.indexOf("Exit codes:"))
            .lines()
            .skip(1)
            .filter(l -> !l.isBlank())
            .toList();
    assertThat(rows).hasSizeGreaterThan(ExitCode.values().length);
    for (String row : rows) {
      assertThat(row).as(row).matches(" {2}[ 0-9]{3}  \\S.*| {7}\\S.*").hasSizeLessThan(80);
    }
    assertThat(help)
        .contains(
            "    3  an input cannot be read (missing, unreadable, no recordings, no thread\n"
                + "       dumps in recordings), or an output cannot be written");
  }

  /**
   * Each command's --format help names exactly the formats it accepts and completion offers: one
   * list per command (merge has no html page, check and diff no page or metrics).
   */
  @Test
  void eachFormatHelpNamesWhatTheCommandAccepts() {
    picocli.CommandLine all =
        VtScope.commandLine(
            new java.io.PrintWriter(new java.io.StringWriter()),
            new java.io.PrintWriter(new java.io.StringWriter()),
            null);
    java.util.Map<String, List<String>> offered = new java.util.TreeMap<>();
    all.getSubcommands()
        .forEach(
            (name, sub) -> {
              picocli.CommandLine.Model.OptionSpec format =
                  sub.getCommandSpec().findOption("--format");
              if (format == null || !name.equals(sub.getCommandName())) {
                return;
              }
              List<String> candidates = new java.util.ArrayList<>();
              format.completionCandidates().forEach(candidates::add);
              String help = String.join(" ", format.description());
              List<String> named =
                  java.util.regex.Pattern.compile("(?:^|; )([a-z-]+)(?: \\(default\\))?: ")
                      .matcher(help)
                      .results()
                      .map(m -> m.group(1))
                      .toList();
              assertThat(named).as(name + " --format help: " + help).isEqualTo(candidates);
              for (ReportFormat f : ReportFormat.values()) {
                int code = Cli.run(name, "--format", f.label(), "--help").exitCode();
                assertThat(code)
                    .as(name + " --format " + f.label())
                    .isEqualTo(candidates.contains(f.label()) ? 0 : ExitCode.USAGE.code());
              }
              offered.put(name, candidates);
            });
    assertThat(offered)
        .containsEntry(
            "analyze", List.of("text", "json", "markdown", "html", "openmetrics", "otlp-json"))
        .containsEntry("merge", List.of("text", "json", "markdown", "openmetrics", "otlp-json"))
        .containsEntry("check", List.of("text", "json", "markdown"))
        .containsEntry("diff", List.of("text", "json", "markdown"));
  }

  /** vtscope alone prints the list of commands, not an error, and exits as bad usage does. */
  @Test
  void noCommandPrintsTheUsage() {
    Cli.Result r = Cli.run();
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.out()).startsWith("Usage: vtscope").contains("explore").contains("Exit codes:");
    assertThat(r.err()).isEmpty();
  }
}
