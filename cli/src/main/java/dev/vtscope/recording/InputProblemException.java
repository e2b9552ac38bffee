package dev.vtscope.recording;

import java.io.IOException;

/**
 * A path the user gave cannot be used: missing, unreadable, not a file, or a folder with no
 * recordings.
 */
public final class InputProblemException extends IOException {

  private static final long serialVersionUID = 1L;

  public InputProblemException(String message) {
    super(message);
  }
}
