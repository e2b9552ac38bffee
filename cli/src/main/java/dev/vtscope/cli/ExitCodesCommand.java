package dev.vtscope.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code vtscope help exit-codes}: the exit codes of every command, in one place. */
@Command(
    name = "exit-codes",
    hidden = true,
    description = "The exit codes of every vtscope command.")
final class ExitCodesCommand implements Callable<Integer> {

  @Spec private picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().print(ExitCode.table());
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
