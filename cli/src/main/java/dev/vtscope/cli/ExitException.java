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

  /**
   * The failure a running JVM caused: a Java runtime without the Attach API or a JVM without
   * virtual threads is {@link ExitCode#NO_JAVA}, anything else about the JVM {@link
   * ExitCode#TARGET_JVM}.
   */
  static ExitException of(dev.vtscope.live.LiveException e) {
    ExitCode code =
        switch (e.reason()) {
          case NO_ATTACH_API, UNSUITABLE_JVM -> ExitCode.NO_JAVA;
          case NOT_ATTACHABLE, COMMAND_FAILED -> ExitCode.TARGET_JVM;
          case NOT_A_RECORDING -> ExitCode.NOT_A_RECORDING;
          case UNREADABLE -> ExitCode.INPUT_UNREADABLE;
        };
    return new ExitException(code, e.getMessage(), e);
  }

  public ExitCode exitCode() {
    return exitCode;
  }
}
