package dev.vtscope.attribution;

import java.util.List;

/**
 * A method as its class file declares it. Equal only to itself: a scan keys what it found of each
 * method by the method, and a method is one of a class.
 */
public final class DeclaredMethod {

  private final String name;
  private final String descriptor;
  private final int access;
  private final List<CallSite> calls;
  // two ints rather than a LineRange: a scan holds every method of a class path at once
  private final int firstLine;
  private final int lastLine;

  /**
   * @param name its name ({@code <clinit>} for a class initialiser)
   * @param descriptor its descriptor, e.g. {@code (I)V}
   * @param access its access flags (JVMS 4.6)
   * @param calls the calls its code makes, in bytecode order; none without code
   * @param lines its first and last source line, or null without line numbers or code
   */
  public DeclaredMethod(
      String name, String descriptor, int access, List<CallSite> calls, LineRange lines) {
    this.name = name;
    this.descriptor = descriptor;
    this.access = access;
    this.calls = List.copyOf(calls);
    this.firstLine = lines == null ? -1 : lines.first();
    this.lastLine = lines == null ? -1 : lines.last();
  }

  /** Its name followed by its descriptor, e.g. {@code run(I)V}. */
  public String nameAndDescriptor() {
    return name + descriptor;
  }

  /** Its name ({@code <clinit>} for a class initialiser). */
  public String name() {
    return name;
  }

  /** Its descriptor, e.g. {@code (I)V}. */
  public String descriptor() {
    return descriptor;
  }

  /** Its access flags (JVMS 4.6). */
  public int access() {
    return access;
  }

  /** The calls its code makes, in bytecode order; none without code. */
  public List<CallSite> calls() {
    return calls;
  }

  /** Its first and last source line, or null without line numbers or code. */
  public LineRange lines() {
    return firstLine < 0 ? null : new LineRange(firstLine, lastLine);
  }

  public boolean isSynchronized() {
    return (access & MethodCode.ACC_SYNCHRONIZED) != 0;
  }

  public boolean isNative() {
    return (access & MethodCode.ACC_NATIVE) != 0;
  }

  public boolean isStatic() {
    return (access & MethodCode.ACC_STATIC) != 0;
  }

  public boolean isAbstract() {
    return (access & MethodCode.ACC_ABSTRACT) != 0;
  }

  @Override
  public String toString() {
    return nameAndDescriptor();
  }
}
