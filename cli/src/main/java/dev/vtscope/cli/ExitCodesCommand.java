package dev.vtscope.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope help exit-codes}: the exit codes of every command, in one place. */
final class ExitCodesCommand implements Callable<Integer> {

  private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this).name("exit-codes");

  ExitCodesCommand() {
    spec.usageMessage().hidden(true).description("The exit codes of every vtscope command.");
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    spec.commandLine().getOut().print(ExitCode.table());
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
