package dev.vtscope.recording;

/**
 * A chunk's bytes do not follow the JFR format where vtscope's reader needed them to: a value runs
 * past its record, a count is impossible, a reference has no constant, an encoding is unknown.
 * Unchecked inside the reader, where every byte is read; the reader turns it into a one-line reason
 * with the byte where it was found.
 */
final class JfrFormatException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final long offset;

  JfrFormatException(String message, long offset) {
    super(message, null, false, false);
    this.offset = offset;
  }

  /** Where in the chunk the damage was found, from the chunk's start. */
  long offset() {
    return offset;
  }
}
