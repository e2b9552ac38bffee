package dev.vtscope.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code vtscope completion bash|zsh|fish}: a completion script for the shell, made from the
 * command line's own model, so it always matches the options vtscope has.
 */
final class CompletionCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "completion",
          "Prints a completion script for bash, zsh or fish",
          "Prints a completion script for bash, zsh or fish.",
          "bash: source <(vtscope completion bash)   (or save it in"
              + " ~/.local/share/bash-completion/completions/vtscope)",
          "zsh:  autoload -U +X bashcompinit && bashcompinit",
          "      source <(vtscope completion zsh)",
          "fish: vtscope completion fish > ~/.config/fish/completions/vtscope.fish");

  /** The shells. */
  enum Shell {
    bash,
    zsh,
    fish
  }

  private Shell shell;

  CompletionCommand() {
    spec.addPositional(
        Specs.parameters(() -> shell, v -> shell = v)
            .paramLabel("SHELL")
            .required(true)
            .arity("1")
            .type(Shell.class)
            .description("bash, zsh or fish.")
            .build());
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    // the whole command line, whichever subcommand this run was started with
    CommandLine all = VtScope.commandLine(new PrintWriter(new StringWriter()), out, null);
    out.print(
        switch (shell) {
          // picocli's script serves zsh through bashcompinit
          case bash, zsh -> AutoComplete.bash("vtscope", all);
          case fish -> fish(all);
        });
    out.flush();
    return ExitCode.OK.code();
  }

  /** Fish completions: the subcommands, then each one's options. */
  static String fish(CommandLine all) {
    StringBuilder s = new StringBuilder("# fish completion for vtscope\n");
    s.append("complete -c vtscope -f\n");
    all.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals(sub.getCommandName())
                  || sub.getCommandSpec().usageMessage().hidden()) {
                return; // an alias, or a command the list of commands leaves out (exit-codes)
              }
              s.append("complete -c vtscope -n __fish_use_subcommand -a ")
                  .append(name)
                  .append(" -d ")
                  .append(quote(HelpLayout.summary(sub.getCommandSpec())))
                  .append('\n');
            });
    all.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals(sub.getCommandName())) {
                return;
              }
              // the command as typed by any of its names (analyse is analyze)
              String names = String.join(" ", sub.getCommandSpec().names());
              for (OptionSpec option : sub.getCommandSpec().options()) {
                if (option.hidden()) {
                  continue;
                }
                s.append("complete -c vtscope -n '__fish_seen_subcommand_from ")
                    .append(names)
                    .append("'");
                for (String n : option.names()) {
                  s.append(
                      n.startsWith("--")
                          ? " -l " + n.substring(2)
                          : n.length() == 2 ? " -s " + n.substring(1) : " -o " + n.substring(1));
                }
                if (option.arity().max() > 0) {
                  s.append(" -r");
                  List<String> candidates = candidates(option);
                  if (!candidates.isEmpty()) {
                    s.append(" -a ").append(quote(String.join(" ", candidates)));
                  }
                }
                s.append(" -d ").append(quote(first(option.description()))).append('\n');
              }
              if (!sub.getCommandSpec().positionalParameters().isEmpty()) {
                List<String> values = positionalCandidates(all, sub);
                s.append("complete -c vtscope -n '__fish_seen_subcommand_from ")
                    .append(names)
                    .append(
                        values.isEmpty()
                            ? "' -F\n"
                            : "' -a " + quote(String.join(" ", values)) + "\n");
              }
            });
    return s.toString();
  }

  /**
   * What a subcommand's positional parameters take, when they name values rather than files: for
   * help, the commands it lists (as picocli's bash script offers them) and its own candidates.
   */
  private static List<String> positionalCandidates(CommandLine all, CommandLine sub) {
    List<String> values = new java.util.ArrayList<>();
    if (sub.getCommand() instanceof CommandLine.HelpCommand) {
      all.getSubcommands()
          .forEach(
              (name, command) -> {
                if (name.equals(command.getCommandName())
                    && !command.getCommandSpec().usageMessage().hidden()
                    && command != sub) {
                  values.add(name);
                }
              });
    }
    for (PositionalParamSpec parameter : sub.getCommandSpec().positionalParameters()) {
      if (parameter.completionCandidates() != null) {
        parameter.completionCandidates().forEach(values::add);
      }
    }
    return values;
  }

  private static List<String> candidates(OptionSpec option) {
    Iterable<String> values = option.completionCandidates();
    if (values == null) {
      return List.of();
    }
    List<String> list = new java.util.ArrayList<>();
    values.forEach(list::add);
    return list;
  }

  private static String first(String[] lines) {
    if (lines == null || lines.length == 0) {
      return "";
    }
    String line = lines[0].replace("%n", "").trim();
    java.util.regex.Matcher end = java.util.regex.Pattern.compile("\\.\\s+[A-Z]").matcher(line);
    int stop = end.find() ? end.start() : -1;
    return stop > 0
        ? line.substring(0, stop)
        : line.endsWith(".") ? line.substring(0, line.length() - 1) : line;
  }

  private static String quote(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
