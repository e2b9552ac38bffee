package dev.vtscope.analysis;

import dev.vtscope.recording.Frame;

/**
 * The identity of a frame for grouping: class, method, descriptor and line.
 *
 * @param className class name
 * @param method method name
 * @param descriptor method descriptor
 * @param line source line or -1
 */
record FrameKey(String className, String method, String descriptor, int line) {

  FrameKey withoutLine() {
    return new FrameKey(className, method, descriptor, -1);
  }

  static FrameKey of(Frame frame) {
    return new FrameKey(frame.className(), frame.method(), frame.descriptor(), frame.line());
  }
}
