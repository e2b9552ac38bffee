package dev.vtscope.live;

/** Why watching a JVM's recording did not go on: one line for the user, and its kind. */
public final class WatchException extends Exception {

  private static final long serialVersionUID = 1L;

  /** The kinds, which the command line maps to exit codes. */
  public enum Problem {
    /** The repository's chunks could not be read as a recording. */
    NOT_A_RECORDING,
    /** The folder could not be read, or no recording appeared in it. */
    UNREADABLE
  }

  private final Problem problem;

  public WatchException(Problem problem, String message) {
    super(message);
    this.problem = problem;
  }

  public WatchException(Problem problem, String message, Throwable cause) {
    super(message, cause);
    this.problem = problem;
  }

  public Problem problem() {
    return problem;
  }
}
