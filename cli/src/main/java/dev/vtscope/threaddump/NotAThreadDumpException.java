package dev.vtscope.threaddump;

/** Input that is none of the thread dump formats; its message is one line, for the user. */
public final class NotAThreadDumpException extends Exception {

  public NotAThreadDumpException(String message) {
    super(message);
  }
}
