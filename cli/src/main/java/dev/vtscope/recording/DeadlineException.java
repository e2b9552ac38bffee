package dev.vtscope.recording;

/** Reading a chunk went past the reader's time limit. */
final class DeadlineException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  DeadlineException() {
    super(null, null, false, false);
  }
}
