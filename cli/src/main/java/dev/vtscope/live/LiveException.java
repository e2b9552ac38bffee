package dev.vtscope.live;

/**
 * A running JVM could not be reached, did not do what was asked, or its recording could not be
 * watched; the message says which, in one line, and what to do.
 */
public final class LiveException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Why. */
  public enum Reason {
    /** The Java runtime running vtscope has no Attach API, or does not let vtscope use it. */
    NO_ATTACH_API,
    /** No JVM with that pid, or one that does not accept an attach (another user's, disabled). */
    NOT_ATTACHABLE,
    /** The JVM's JDK cannot do it: no virtual threads, no JFR. */
    UNSUITABLE_JVM,
    /** The JVM answered a command with an error, or exited meanwhile. */
    COMMAND_FAILED,
    /** The JVM's repository holds chunks that cannot be read as a recording. */
    NOT_A_RECORDING,
    /**
     * The JVM's repository folder could not be read, no recording appeared in it, or a dump's file
     * could not be written.
     */
    UNREADABLE
  }

  private final Reason reason;

  public LiveException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public LiveException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
