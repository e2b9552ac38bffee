package dev.vtscope.record;

/** Why recording did not happen, or did not end well: one line for the user, and its kind. */
public final class RecordException extends Exception {

  private static final long serialVersionUID = 1L;

  /** The kinds, which the command line maps to exit codes. */
  public enum Problem {
    /** Options that cannot go together, or a file that must not be written. */
    USAGE,
    /** The recording cannot be written where --out says: no such folder, or not writable. */
    CANNOT_WRITE,
    /** No JDK of the release asked for, or a java without virtual threads. */
    NO_JAVA,
    /** The program could not be started at all. */
    CANNOT_START,
    /** The program ran and wrote no recording. */
    PROGRAM_FAILED,
    /** The running JVM exited or wrote nothing. */
    TARGET_JVM
  }

  private final Problem problem;

  public RecordException(Problem problem, String message) {
    super(message);
    this.problem = problem;
  }

  public RecordException(Problem problem, String message, Throwable cause) {
    super(message, cause);
    this.problem = problem;
  }

  public Problem problem() {
    return problem;
  }
}
