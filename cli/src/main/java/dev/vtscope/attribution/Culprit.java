package dev.vtscope.attribution;

import dev.vtscope.recording.Frame;
import java.util.List;

/**
 * Who holds the carrier.
 *
 * @param className the class of the culprit (for class initialisation: the class being initialised)
 * @param method the method, e.g. {@code execute} or {@code <clinit>}
 * @param line the line of the frame, or -1
 * @param kind what kind of hold it is
 * @param owner whose code it is
 * @param artifact the library it came from, or null
 * @param lineRange the synchronized block's lines, or null
 * @param frameIndex index of the culprit's frame in the stack, or -1 when it is not on it
 * @param detail what vtscope could not know and what would let it know, or the recorded reason of
 *     an unknown pin; for file I/O, spinning and compensated blocking, the JDK method the culprit
 *     called; null when there is nothing to add
 */
public record Culprit(
    String className,
    String method,
    int line,
    CulpritKind kind,
    Owner owner,
    Artifact artifact,
    LineRange lineRange,
    int frameIndex,
    String detail) {

  /** {@code Class.method}. */
  public String qualifiedMethod() {
    return className + "." + method;
  }

  /**
   * Whether this is warm-up, once per class, that comes and goes between runs: the JDK initialising
   * one of its own classes, or the JVM loading a class other than through a loader of the
   * application's or a library's (which may be slow, and is worth fixing).
   *
   * @param stack the frames this culprit was found on
   */
  public boolean isWarmUp(List<Frame> stack) {
    return switch (kind) {
      case CLASS_INIT, CLASS_INIT_WAIT -> FrameOwnership.isJdkPackage(className);
      case CLASS_LOADING -> ClassLoading.customLoader(stack, frameIndex) == null;
      default -> false;
    };
  }

  /** {@code Class.method}, without a hidden class's address: the same in every recording. */
  public String stableMethod() {
    return Frame.stableClassName(className) + "." + method;
  }
}
