package dev.vtscope.cli;

import dev.vtscope.report.Escaping;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one line on stderr that starts with {@code vtscope <command>:} and an
 * exit code from {@link ExitCode}. Stack traces only with {@code --verbose}.
 */
final class ErrorReporter
    implements CommandLine.IExecutionExceptionHandler,
        CommandLine.IParameterExceptionHandler,
        CommandLine.IExitCodeExceptionMapper {

  /** Whether a failure was said: then nothing more is, whatever else went wrong. */
  private boolean said;

  /** Whether this reporter said a failure of the command. */
  boolean said() {
    return said;
  }

  /** What is left unmapped by the handlers: an internal error. */
  @Override
  public int getExitCode(Throwable exception) {
    return ExitCode.INTERNAL_ERROR.code();
  }

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, ParseResult parseResult) {
    said = true;
    PrintWriter err = commandLine.getErr();
    String prefix = prefix(commandLine);
    boolean verbose = verbose(parseResult);
    if (e instanceof ExitException exit) {
      // bad usage says where the help is, as picocli's own usage errors do
      boolean usage = exit.exitCode() == ExitCode.USAGE && !exit.getMessage().contains("--help");
      // the message may name a file found in a folder or an option as typed: one line, escaped
      err.println(
          Escaping.terminalLine(prefix + exit.getMessage() + (usage ? seeHelp(commandLine) : "")));
      if (verbose && exit.getCause() != null) {
        exit.getCause().printStackTrace(err);
      }
      err.flush();
      return exit.exitCode().code();
    }
    err.println(
        Escaping.terminalLine(
            prefix
                + "internal error: "
                + e
                + (verbose
                    ? ""
                    : " (run again with --verbose for the stack trace, and please report it)")));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
    return ExitCode.INTERNAL_ERROR.code();
  }

  @Override
  public int handleParseException(CommandLine.ParameterException e, String[] args) {
    said = true;
    CommandLine commandLine = e.getCommandLine();
    PrintWriter err = commandLine.getErr();
    err.println(Escaping.terminalLine(prefix(commandLine) + describe(e) + seeHelp(commandLine)));
    err.flush();
    return ExitCode.USAGE.code();
  }

  /** Where the help of the command is: the end of every usage error. */
  private static String seeHelp(CommandLine commandLine) {
    return " (see '" + commandLine.getCommandSpec().qualifiedName() + " --help')";
  }

  /** Picocli's words for a value that is not a number of the option's type. */
  private static final java.util.regex.Pattern NOT_A_NUMBER =
      java.util.regex.Pattern.compile(
          "Invalid value for (?:option|positional parameter[^']*) '([^']+)': '(.*)' is not an?"
              + " (int|long|short|byte|float|double)");

  /**
   * What was wrong with the command line, in vtscope's words where picocli's are its own (unknown
   * commands and options, a value that is not one of the choices), with what was probably meant.
   */
  static String describe(CommandLine.ParameterException e) {
    CommandSpec spec = e.getCommandLine().getCommandSpec();
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched
        && !unmatched.getUnmatched().isEmpty()) {
      String first = unmatched.getUnmatched().get(0);
      if (unmatched.isUnknownOption()) {
        // --fromat=json: the name is what was mistyped
        String name = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
        return "unknown option '"
            + name
            + "'"
            + NearestNames.didYouMean(NearestNames.to(name, optionNames(spec)));
      }
      if (!spec.subcommands().isEmpty()) {
        return unknownCommand(first, spec);
      }
      List<String> extra = unmatched.getUnmatched();
      return (extra.size() == 1 ? "unexpected argument " : "unexpected arguments ")
          + String.join(", ", extra.stream().map(a -> "'" + a + "'").toList());
    }
    // 'vtscope help NAME' with no such command: picocli's help command says so without naming
    // what was wrong with an argument
    if (e.getArgSpec() == null
        && e.getValue() != null
        && !spec.subcommands().isEmpty()
        && !spec.subcommands().containsKey(e.getValue())) {
      return unknownCommand(e.getValue(), spec);
    }
    List<String> choices = choices(e.getArgSpec());
    // a value that did not convert is a plain ParameterException; its subclasses say other things
    if (e.getClass() == CommandLine.ParameterException.class
        && e.getValue() != null
        && !choices.isEmpty()
        && choices.stream().noneMatch(c -> c.equalsIgnoreCase(e.getValue().trim()))) {
      return name(e.getArgSpec())
          + " takes "
          + oneOf(choices)
          + ", not '"
          + e.getValue()
          + "'"
          + NearestNames.didYouMean(
              NearestNames.to(e.getValue().trim(), choices.stream().map(List::of).toList()));
    }
    java.util.regex.Matcher number = NOT_A_NUMBER.matcher(String.valueOf(e.getMessage()));
    if (number.matches()) {
      boolean whole = !number.group(3).equals("float") && !number.group(3).equals("double");
      return number.group(1)
          + " takes "
          + (whole ? "a whole number" : "a number")
          + ", not '"
          + number.group(2)
          + "'";
    }
    // a converter's words, which say what the option takes, after the option's name
    if (e.getCause() instanceof CommandLine.TypeConversionException conversion
        && e.getArgSpec() != null
        && choices.isEmpty()) {
      return name(e.getArgSpec()) + " " + conversion.getMessage();
    }
    return e.getMessage();
  }

  private static String unknownCommand(String typed, CommandSpec spec) {
    return "unknown command '"
        + typed
        + "'"
        + NearestNames.didYouMean(NearestNames.to(typed, commandNames(spec)));
  }

  /** Each visible option's names. */
  private static List<List<String>> optionNames(CommandSpec spec) {
    return spec.options().stream().filter(o -> !o.hidden()).map(o -> List.of(o.names())).toList();
  }

  /**
   * Each subcommand's name and aliases, once per subcommand. Hidden ones too: {@code exit-codes} is
   * out of the list only to keep the list short, and works.
   */
  private static List<List<String>> commandNames(CommandSpec spec) {
    Set<CommandLine> seen = new LinkedHashSet<>(spec.subcommands().values());
    List<List<String>> names = new ArrayList<>();
    for (CommandLine sub : seen) {
      List<String> group = new ArrayList<>();
      group.add(sub.getCommandName());
      group.addAll(List.of(sub.getCommandSpec().aliases()));
      names.add(group);
    }
    return names;
  }

  /** The values an option or parameter takes, as its completion offers them; empty if free. */
  private static List<String> choices(ArgSpec arg) {
    if (arg == null || arg.completionCandidates() == null) {
      return List.of();
    }
    List<String> choices = new ArrayList<>();
    arg.completionCandidates().forEach(choices::add);
    return choices;
  }

  private static String name(ArgSpec arg) {
    return arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
  }

  /** "a, b or c". */
  private static String oneOf(List<String> choices) {
    return choices.size() == 1
        ? choices.get(0)
        : String.join(", ", choices.subList(0, choices.size() - 1))
            + " or "
            + choices.get(choices.size() - 1);
  }

  private static String prefix(CommandLine commandLine) {
    return commandLine.getCommandSpec().qualifiedName() + ": ";
  }

  private static boolean verbose(ParseResult parseResult) {
    for (ParseResult r = parseResult; r != null; r = r.subcommand()) {
      if (r.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }
}
