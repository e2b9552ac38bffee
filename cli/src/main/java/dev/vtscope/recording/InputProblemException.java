package dev.vtscope.recording;

import java.io.IOException;

/**
 * A path the user gave cannot be used: missing, unreadable, not a file, or a folder with no
 * recordings.
 */
public final class InputProblemException extends IOException {

  private static final long serialVersionUID = 1L;

  private final boolean notARecording;

  public InputProblemException(String message) {
    this(message, false);
  }

  private InputProblemException(String message, boolean notARecording) {
    super(message);
    this.notARecording = notARecording;
  }

  /**
   * The input could be read but holds no recording: a stream or pipe that gave no bytes, as an
   * empty file holds none (exit code 4, not 3).
   */
  public static InputProblemException notARecording(String message) {
    return new InputProblemException(message, true);
  }

  /** Whether the input was read and holds no recording, rather than could not be read. */
  public boolean notARecording() {
    return notARecording;
  }
}
