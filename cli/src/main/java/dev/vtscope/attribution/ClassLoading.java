package dev.vtscope.attribution;

import dev.vtscope.recording.Frame;
import java.util.List;

/**
 * How the JVM loading a class shows on a stack: the VM calls {@code loadClass(String)} of the class
 * loader for the frame below, and a virtual thread cannot unmount inside that call.
 */
public final class ClassLoading {

  private static final String LOAD_CLASS_DESCRIPTOR = "(Ljava/lang/String;)Ljava/lang/Class;";

  private ClassLoading() {}

  /**
   * The frame where the JVM called a class loader: a {@code loadClass(String)} whose caller is not
   * a class loader (the VM is between them); the outermost one. -1 when there is none.
   */
  static int entryIndex(List<Frame> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      Frame f = frames.get(i);
      boolean entry =
          f.method().equals("loadClass")
              && (f.descriptor() == null
                  || f.descriptor().isEmpty()
                  || f.descriptor().equals(LOAD_CLASS_DESCRIPTOR));
      if (entry && (i + 1 == frames.size() || !isLoaderFrame(frames.get(i + 1)))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The class of a loader that is not the JDK's among the frames above {@code entry} (the
   * application's or a library's own loader, which the JVM waited in), or null.
   */
  public static String customLoader(List<Frame> frames, int entry) {
    for (int i = 0; i < entry && i < frames.size(); i++) {
      Frame f = frames.get(i);
      if (isLoaderFrame(f) && !FrameOwnership.isJdkPackage(f.className())) {
        return f.className();
      }
    }
    return null;
  }

  /**
   * The frame that used the class first: the one below the loader call at {@code culpritIndex}, or
   * that frame itself when the JVM took its own lock at its line. Null when off the stack.
   */
  public static Frame firstUse(List<Frame> frames, int culpritIndex) {
    if (culpritIndex < 0 || culpritIndex >= frames.size()) {
      return null;
    }
    int at =
        frames.get(culpritIndex).method().equals("loadClass") ? culpritIndex + 1 : culpritIndex;
    return at < frames.size() ? frames.get(at) : null;
  }

  private static boolean isLoaderFrame(Frame f) {
    return f.method().startsWith("loadClass")
        || f.method().equals("findClass")
        || f.className().equals("java.lang.ClassLoader");
  }
}
