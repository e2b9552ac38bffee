package dev.vtscope.attribution;

import java.util.List;

/**
 * A method as its class file declares it.
 *
 * @param name its name ({@code <clinit>} for a class initialiser)
 * @param descriptor its descriptor, e.g. {@code (I)V}
 * @param access its access flags (JVMS 4.6)
 * @param calls the calls its code makes, in bytecode order; none without code
 * @param lines its first and last source line, or null without line numbers or code
 */
public record DeclaredMethod(
    String name, String descriptor, int access, List<CallSite> calls, LineRange lines) {

  public DeclaredMethod {
    calls = List.copyOf(calls);
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
}
