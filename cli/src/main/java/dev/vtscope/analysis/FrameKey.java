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

  // written out: the generated record methods run several times slower in the quick JIT's code
  @Override
  public boolean equals(Object o) {
    return this == o
        || (o instanceof FrameKey k
            && line == k.line
            && java.util.Objects.equals(method, k.method)
            && java.util.Objects.equals(className, k.className)
            && java.util.Objects.equals(descriptor, k.descriptor));
  }

  @Override
  public int hashCode() {
    int h = java.util.Objects.hashCode(className);
    h = 31 * h + java.util.Objects.hashCode(method);
    h = 31 * h + java.util.Objects.hashCode(descriptor);
    return 31 * h + line;
  }

  static FrameKey of(Frame frame) {
    return new FrameKey(frame.className(), frame.method(), frame.descriptor(), frame.line());
  }
}
