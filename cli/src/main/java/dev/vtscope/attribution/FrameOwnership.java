package dev.vtscope.attribution;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides whose code each frame is: the JDK's, a library's or the application's.
 *
 * <p>JDK: classes of the boot or platform loader (or, when the recording does not say, the {@code
 * java.}, {@code javax.}, {@code jdk.}, {@code sun.} and {@code com.sun.} packages). Application:
 * classes under the {@code --app-package} prefixes; without them, classes that share the first two
 * package segments with the outermost non-JDK frame of the stack that is not a known server or test
 * framework, i.e. the code that started the thread's task (every class of the default package when
 * that one is there). Everything else: library.
 */
public final class FrameOwnership {

  /** Frameworks that run tasks for the application: their frames never define "the application". */
  private static final List<String> RUNNERS =
      List.of(
          "org.apache.",
          "io.netty.",
          "org.eclipse.jetty.",
          "io.undertow.",
          "org.springframework.",
          "io.micronaut.",
          "io.quarkus.",
          "io.helidon.",
          "io.vertx.",
          "kotlinx.coroutines.",
          "kotlin.",
          "org.junit.",
          "junit.",
          "org.testng.",
          "com.intellij.",
          "org.gradle.",
          "reactor.",
          "io.reactivex.",
          "akka.",
          "scala.");

  private final List<String> appPrefixes;

  /**
   * @param appPrefixes package prefixes of the application; empty for the default rule
   */
  public FrameOwnership(List<String> appPrefixes) {
    this.appPrefixes = appPrefixes.stream().map(p -> p.endsWith(".") ? p : p + ".").toList();
  }

  /** The owner of each frame, in stack order. */
  public List<Owner> classify(RecordedStack stack) {
    List<Frame> frames = stack.frames();
    List<String> prefixes = appPrefixes.isEmpty() ? defaultPrefixes(frames) : appPrefixes;
    List<Owner> owners = new ArrayList<>(frames.size());
    for (Frame frame : frames) {
      if (isJdk(frame)) {
        owners.add(Owner.JDK);
      } else if (prefixes == DEFAULT_PACKAGE
          ? frame.className().indexOf('.') < 0
          : startsWithAny(frame.className(), prefixes)) {
        owners.add(Owner.APPLICATION);
      } else {
        owners.add(Owner.LIBRARY);
      }
    }
    return owners;
  }

  // a loop rather than a stream: this runs for every frame of every distinct stack
  private static boolean startsWithAny(String name, List<String> prefixes) {
    for (int i = 0; i < prefixes.size(); i++) {
      if (name.startsWith(prefixes.get(i))) {
        return true;
      }
    }
    return false;
  }

  public static boolean isJdk(Frame frame) {
    return switch (frame.loader()) {
      case BOOT, PLATFORM -> true;
      case APPLICATION -> false;
      case UNKNOWN -> isJdkPackage(frame.className());
    };
  }

  /** Whether {@code className} is in one of the JDK's own packages. */
  public static boolean isJdkPackage(String className) {
    return className.startsWith("java.")
        || className.startsWith("javax.")
        || className.startsWith("jdk.")
        || className.startsWith("sun.")
        || className.startsWith("com.sun.");
  }

  /**
   * The application when the code that started the task is in the default package: every class of
   * that package (a library is never there), each told by having no package at all.
   */
  private static final List<String> DEFAULT_PACKAGE = List.of("");

  private static List<String> defaultPrefixes(List<Frame> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      Frame frame = frames.get(i);
      String name = frame.className();
      if (isJdk(frame) || startsWithAny(name, RUNNERS)) {
        continue;
      }
      // A hidden class (lambda) carries an address in its name: go by the class that defined it.
      int hidden = name.indexOf("$$Lambda");
      String prefix = prefixOf(hidden > 0 ? name.substring(0, hidden) : name);
      return prefix.isEmpty() ? DEFAULT_PACKAGE : List.of(prefix);
    }
    return List.of();
  }

  /**
   * The first two package segments (or the whole package when it has fewer), with a dot; empty for
   * the default package.
   */
  static String prefixOf(String className) {
    int lastDot = className.lastIndexOf('.');
    if (lastDot < 0) {
      return "";
    }
    String pkg = className.substring(0, lastDot);
    String[] parts = pkg.split("\\.");
    return parts.length <= 2 ? pkg + "." : parts[0] + "." + parts[1] + ".";
  }
}
