package dev.vtscope.recording;

import java.util.List;

/**
 * A recorded stack trace, innermost frame first.
 *
 * @param frames the frames, innermost (where the thread was when the event ended) first
 * @param truncated whether JFR cut the stack at the recording's stack depth
 */
public record RecordedStack(List<Frame> frames, boolean truncated) {

  /** A stack with no frames, for events recorded without one. */
  public static final RecordedStack EMPTY = new RecordedStack(List.of(), false);

  public RecordedStack {
    frames = List.copyOf(frames);
  }

  /** The first application frame, innermost first, as {@code jfr view} picks it; null if none. */
  public Frame topApplicationFrame() {
    for (Frame frame : frames) {
      if (frame.isApplicationFrame()) {
        return frame;
      }
    }
    return null;
  }

  /** The innermost frame, or null for an empty stack. */
  public Frame topFrame() {
    return frames.isEmpty() ? null : frames.get(0);
  }
}
