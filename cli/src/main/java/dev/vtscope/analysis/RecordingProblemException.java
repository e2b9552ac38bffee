package dev.vtscope.analysis;

/**
 * An input is not a usable recording. {@code unreadable} separates files that cannot be read at all
 * (permissions, I/O) from files that were read but are not JFR or are damaged from the start.
 */
public final class RecordingProblemException extends Exception {

  private static final long serialVersionUID = 1L;

  private final boolean unreadable;

  public RecordingProblemException(String message, boolean unreadable) {
    super(message);
    this.unreadable = unreadable;
  }

  /** True when the file could not be read; false when it was read but is not a valid recording. */
  public boolean unreadable() {
    return unreadable;
  }
}
