package dev.vtscope.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one line on stderr that starts with {@code vtscope <command>:} and an
 * exit code from {@link ExitCode}. Stack traces only with {@code --verbose}.
 */
final class ErrorReporter
    implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, ParseResult parseResult) {
    PrintWriter err = commandLine.getErr();
    String prefix = prefix(commandLine);
    boolean verbose = verbose(parseResult);
    if (e instanceof ExitException exit) {
      err.println(prefix + exit.getMessage());
      if (verbose && exit.getCause() != null) {
        exit.getCause().printStackTrace(err);
      }
      err.flush();
      return exit.exitCode().code();
    }
    err.println(
        prefix
            + "internal error: "
            + e
            + (verbose
                ? ""
                : " (run again with --verbose for the stack trace, and please report it)"));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
    return ExitCode.INTERNAL_ERROR.code();
  }

  @Override
  public int handleParseException(CommandLine.ParameterException e, String[] args) {
    CommandLine commandLine = e.getCommandLine();
    PrintWriter err = commandLine.getErr();
    String suggestion = "";
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched
        && !unmatched.getSuggestions().isEmpty()) {
      // an alias (analyse) is not a second suggestion beside its command (analyze)
      List<String> suggestions =
          unmatched.getSuggestions().stream()
              .filter(s -> !s.equals("analyse") || !unmatched.getSuggestions().contains("analyze"))
              .map(s -> "'" + s + "'")
              .toList();
      suggestion = "; did you mean " + String.join(" or ", suggestions) + "?";
    }
    err.println(
        prefix(commandLine)
            + e.getMessage()
            + suggestion
            + " (see '"
            + commandLine.getCommandSpec().qualifiedName()
            + " --help')");
    err.flush();
    return ExitCode.USAGE.code();
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
