package dev.vtscope.recording;

import java.io.IOException;

/** The input is not a readable JFR recording: empty, not JFR, or damaged from its first chunk. */
public final class NotARecordingException extends IOException {

  private static final long serialVersionUID = 1L;

  public NotARecordingException(String message) {
    super(message);
  }
}
