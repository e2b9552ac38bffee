package dev.vtscope.cli;

import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.Workloads;
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
          case bash, zsh -> bash(all);
          case fish -> fish(all);
        });
    out.flush();
    return ExitCode.OK.code();
  }

  /**
   * The bash script: picocli's, with three things it cannot say by itself. {@code --variant} offers
   * the variants of the workload the line names; {@code --pid} offers the pids of this user's
   * running JVMs, where picocli offers nothing; and where nothing is offered, nothing is: picocli
   * registers the script with {@code -o default}, which bash turns off again in each command but
   * zsh's bashcompinit cannot, so that zsh offered file names for a pid or a duration.
   */
  static String bash(CommandLine all) {
    String script = AutoComplete.bash("vtscope", all);
    script =
        replaceEach(
            script,
            "    '--pid')\n      return\n      ;;\n",
            """
                '--pid')
                  local IFS=$'\\n'
                  COMPREPLY=( $(compgen -W "$(_vtscope_jvm_pids)" -- "${curr_word}") )
                  return 0
                  ;;
            """
                .indent(-4)
                .indent(4));
    script =
        replaceEach(
            script,
            """
                '--variant')
                  local IFS=$'\\n'
                  COMPREPLY=( $( compReplyArray "${V_option_args[@]}" ) )
                  return $?
                  ;;
            """
                .indent(-4)
                .indent(4),
            variantCase());
    script =
        replaceEach(
            script,
            """
            # The `-o default` option means that if the function generated no matches, the
            # default Bash completions and the Readline default filename completions are performed.
            complete -F _complete_vtscope -o default\s""",
            """
            # Without -o default: where the function offers nothing (a pid, a duration), nothing is
            # offered, rather than file names.
            complete -F _complete_vtscope\s""");
    return script
        + """

        # The pids of this user's running JVMs, found as 'vtscope jvms' (and jcmd -l) finds them:
        # by the file each keeps in the temporary folder's hsperfdata_USER, which a JVM started
        # with -XX:-UsePerfData has not. Files a JVM left behind when it died are passed over.
        function _vtscope_jvm_pids() {
          local folder file
          for folder in "/tmp/hsperfdata_$(id -un)" "${TMPDIR:-/tmp}/hsperfdata_$(id -un)"; do
            for file in "$folder"/*; do
              file=${file##*/}
              [[ $file =~ ^[0-9]+$ ]] && kill -0 "$file" 2>/dev/null && echo "$file"
            done
          done | sort -un
        }
        """;
  }

  /** The case of {@code --variant}: the variants of the workload named before it, else all. */
  private static String variantCase() {
    StringBuilder s =
        new StringBuilder(
            """
                '--variant')
                  local IFS=$'\\n'
                  local workload="" i
                  for (( i=1; i<COMP_CWORD; i++ )); do
                    if [[ ${COMP_WORDS[i]} == --workload ]]; then
                      workload=${COMP_WORDS[i+1]}
                      [[ $workload == = ]] && workload=${COMP_WORDS[i+2]}
                    fi
                  done
                  case ${workload} in
            """
                .indent(-4)
                .indent(4));
    for (Workload workload : Workloads.ALL) {
      s.append("        '").append(workload.name()).append("') COMPREPLY=( $( compReplyArray");
      workload.variants().forEach(v -> s.append(" '").append(v).append("'"));
      s.append(" ) ) ;;\n");
    }
    s.append(
        """
                    *) COMPREPLY=( $( compReplyArray "${V_option_args[@]}" ) ) ;;
                  esac
                  return 0
                  ;;
            """
            .indent(-4)
            .indent(4));
    return s.toString();
  }

  /**
   * {@code script} with each {@code part} replaced; fails when there is none, so that a picocli
   * that writes its script differently fails the tests rather than the users' completion.
   */
  private static String replaceEach(String script, String part, String replacement) {
    if (!script.contains(part)) {
      throw new IllegalStateException("the completion script has no " + part.strip());
    }
    return script.replace(part, replacement);
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
                  // -r alone offers file names too: only a path's value is a file
                  boolean path =
                      option.type() == java.nio.file.Path.class
                          || option.type() == java.io.File.class;
                  s.append(path ? " -r -F" : " -x");
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
