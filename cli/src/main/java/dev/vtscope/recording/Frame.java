package dev.vtscope.recording;

import java.lang.reflect.Modifier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One frame of a recorded stack trace.
 *
 * @param className binary class name with dots ({@code java.lang.Thread})
 * @param method method name
 * @param descriptor method descriptor, e.g. {@code (J)V}
 * @param line source line, or -1 when unknown
 * @param bytecodeIndex bytecode index of the frame, or -1 when unknown
 * @param type the frame type as JFR names it ("Interpreted", "JIT compiled", "Inlined", "Native")
 * @param modifiers the method's access flags as recorded by JFR
 * @param loader who loaded the declaring class
 */
public record Frame(
    String className,
    String method,
    String descriptor,
    int line,
    int bytecodeIndex,
    String type,
    int modifiers,
    ClassLoaderKind loader) {

  /** Who loaded a frame's class; JFR records the loader of every class it names. */
  public enum ClassLoaderKind {
    /** The boot loader: {@code java.base} and the other core modules. */
    BOOT,
    /** The platform loader: JDK modules outside the boot layer's core. */
    PLATFORM,
    /** Any other loader: the application's and its libraries'. */
    APPLICATION,
    /** The recording did not say. */
    UNKNOWN
  }

  // equals and hashCode written out: frames are hash keys on every hot path, and the generated
  // record methods (method handles) run several times slower in the quick JIT compiler's code.
  @Override
  public boolean equals(Object o) {
    return this == o
        || (o instanceof Frame f
            && line == f.line
            && bytecodeIndex == f.bytecodeIndex
            && modifiers == f.modifiers
            && loader == f.loader
            && java.util.Objects.equals(method, f.method)
            && java.util.Objects.equals(className, f.className)
            && java.util.Objects.equals(descriptor, f.descriptor)
            && java.util.Objects.equals(type, f.type));
  }

  @Override
  public int hashCode() {
    int h = java.util.Objects.hashCode(className);
    h = 31 * h + java.util.Objects.hashCode(method);
    h = 31 * h + java.util.Objects.hashCode(descriptor);
    h = 31 * h + line;
    h = 31 * h + bytecodeIndex;
    h = 31 * h + java.util.Objects.hashCode(type);
    h = 31 * h + modifiers;
    return 31 * h + java.util.Objects.hashCode(loader);
  }

  /** Whether the method is declared {@code synchronized} (JFR records ACC_SYNCHRONIZED). */
  public boolean isSynchronizedMethod() {
    return Modifier.isSynchronized(modifiers);
  }

  /** Whether the method is a native (JNI) method. */
  public boolean isNativeMethod() {
    return Modifier.isNative(modifiers) || "Native".equals(type);
  }

  /**
   * Whether this frame is application code in the sense of the JDK's own {@code jfr view}: its
   * class was not loaded by the boot loader. The platform loader counts as application here, as it
   * does for {@code stackTrace.topApplicationFrame}.
   */
  public boolean isApplicationFrame() {
    return loader != ClassLoaderKind.BOOT;
  }

  /**
   * The class name without the address a hidden class (a lambda, a method handle form) gets from
   * the JVM, e.g. {@code Foo$$Lambda} for {@code Foo$$Lambda+0x0000000800143800.1471086700} (JDK
   * 21) or {@code Foo$$Lambda.0x0000000045048428} (JDK 25); other names are returned as they are.
   * The address differs from run to run, so keys that must match across recordings use this.
   */
  public static String stableClassName(String className) {
    if (className == null) {
      return null;
    }
    Matcher m = HIDDEN_CLASS_ADDRESS.matcher(className);
    return m.find() ? className.substring(0, m.start()) : className;
  }

  private static final Pattern HIDDEN_CLASS_ADDRESS =
      Pattern.compile("[/+.]0x[0-9a-fA-F]+(\\.\\d+)?$");

  /** {@code Class.method} */
  /**
   * Whether the frame's class was generated at run time rather than written: a {@code
   * java.lang.reflect.Proxy} class ({@code $Proxy12}, in {@code jdk.proxy1}, {@code com.sun.proxy}
   * or the interface's own package) or a hidden class (a lambda's, {@code Foo$$Lambda/0x…}). No one
   * can change a line there: the line to change is the frame that called it.
   */
  public boolean isGenerated() {
    String name = className;
    if (name == null) {
      return false;
    }
    if (name.contains("$$Lambda") || name.contains("/0x")) {
      return true;
    }
    int simple = name.lastIndexOf('.') + 1;
    if (!name.startsWith("$Proxy", simple) || name.length() == simple + 6) {
      return false;
    }
    for (int i = simple + 6; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  public String qualifiedMethod() {
    return className + "." + method;
  }

  /** {@code Class.method(line)} or {@code Class.method} when the line is unknown. */
  public String display() {
    return line >= 0
        ? qualifiedMethod() + "(" + simpleSourceName() + ":" + line + ")"
        : qualifiedMethod() + "()";
  }

  /**
   * The source file javac names for the class: its simple name up to the first {@code $} of a
   * nested class. The cut is made in the simple name, a package name may hold a {@code $} too.
   */
  private String simpleSourceName() {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    int dollar = simple.indexOf('$');
    return (dollar > 0 ? simple.substring(0, dollar) : simple) + ".java";
  }
}
