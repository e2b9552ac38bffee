package dev.vtscope.threaddump;

import dev.vtscope.recording.Frame;
import java.lang.reflect.Modifier;

/**
 * A dump's frames, read as a recording's. Two syntaxes exist: {@link StackTraceElement#toString()}
 * ({@code [loader/][module[@version]/]class.method(File.java:12)}, the JSON and plain-text dumps)
 * and HotSpot's ({@code class.method(module@version/File.java:12)}, {@code Thread.print}).
 */
public final class Frames {

  private Frames() {}

  /** A frame as {@link StackTraceElement#toString()} writes it; null for text that is no frame. */
  public static Frame ofStackTraceElement(String text) {
    int open = text.lastIndexOf('(');
    if (open < 0 || !text.endsWith(")")) {
      return null;
    }
    String source = text.substring(open + 1, text.length() - 1);
    String qualified = text.substring(0, open);
    String module = null;
    // a hidden class's name holds a slash of its own (Outer$$Lambda/0x0000000800c01234): the
    // prefix ends at the slash before it
    int hidden = hiddenSuffix(qualified);
    int slash = hidden < 0 ? qualified.lastIndexOf('/') : qualified.lastIndexOf('/', hidden - 1);
    if (slash >= 0) {
      String prefix = qualified.substring(0, slash);
      qualified = qualified.substring(slash + 1);
      // "loader//class" has an empty module; "loader/module/class" and "module/class" name one
      String last = prefix.substring(prefix.lastIndexOf('/') + 1);
      int at = last.indexOf('@');
      module = last.isEmpty() ? null : at < 0 ? last : last.substring(0, at);
    }
    return frame(module, qualified, source);
  }

  /**
   * Where {@code /0x…} of a hidden class's name starts in {@code class.method}, or -1: a slash,
   * then {@code 0x} and hexadecimal digits up to the method's dot.
   */
  private static int hiddenSuffix(String qualified) {
    int at = qualified.lastIndexOf("/0x");
    if (at < 0) {
      return -1;
    }
    int dot = qualified.indexOf('.', at);
    if (dot < 0 || dot == at + 3) {
      return -1;
    }
    for (int i = at + 3; i < dot; i++) {
      if (Character.digit(qualified.charAt(i), 16) < 0) {
        return -1;
      }
    }
    return at;
  }

  /**
   * A frame as {@code Thread.print} prints it: {@code class.method(module@version/File.java:12)},
   * {@code class.method(File.java:12)} for a class on the class path, {@code (Native Method)},
   * {@code (Unknown Source)}; a hidden class keeps its address ({@code LambdaForm$MH/0x…}). Null
   * for text that is no frame.
   */
  public static Frame ofPrinted(String text) {
    int open = text.lastIndexOf('(');
    if (open < 0 || !text.endsWith(")")) {
      return null;
    }
    String source = text.substring(open + 1, text.length() - 1);
    String module = null;
    int slash = source.indexOf('/');
    if (slash >= 0) {
      String m = source.substring(0, slash);
      int at = m.indexOf('@');
      module = at < 0 ? m : m.substring(0, at);
      source = source.substring(slash + 1);
    }
    return frame(module, text.substring(0, open), source);
  }

  /**
   * A frame from its parts as a thread dump writes them: {@code class.method} and the source in
   * brackets ({@code File.java:12}, {@code Native Method}, {@code Unknown Source}); null when the
   * first names no method.
   *
   * @param module the module, or null for a class on the class path
   */
  static Frame frame(String module, String qualifiedMethod, String source) {
    int dot = qualifiedMethod.lastIndexOf('.');
    if (dot <= 0) {
      return null;
    }
    int line = -1;
    int colon = source.lastIndexOf(':');
    if (colon >= 0) {
      try {
        line = Integer.parseInt(source.substring(colon + 1));
      } catch (NumberFormatException e) {
        line = -1;
      }
    }
    return frame(
        module,
        qualifiedMethod.substring(0, dot),
        qualifiedMethod.substring(dot + 1),
        line,
        source.equals("Native Method"));
  }

  /**
   * A frame of a thread dump as a recording's: a dump names no bytecode index, descriptor or class
   * loader, so a frame of a JDK module counts as the boot loader's, any other as the application's.
   *
   * @param module the module, or null for a class on the class path
   */
  static Frame frame(
      String module, String className, String method, int line, boolean nativeMethod) {
    boolean jdk = module != null && (module.startsWith("java.") || module.startsWith("jdk."));
    return new Frame(
        className,
        method,
        null,
        line,
        -1,
        nativeMethod ? "Native" : null,
        nativeMethod ? Modifier.NATIVE : 0,
        jdk ? Frame.ClassLoaderKind.BOOT : Frame.ClassLoaderKind.APPLICATION);
  }
}
