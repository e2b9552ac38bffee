package dev.vtscope.cli;

/** A user-facing failure: one line for stderr and the exit code that goes with it. */
public final class ExitException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ExitCode exitCode;

  public ExitException(ExitCode exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public ExitException(ExitCode exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public ExitCode exitCode() {
    return exitCode;
  }
}
