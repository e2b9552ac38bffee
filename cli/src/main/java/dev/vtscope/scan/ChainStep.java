package dev.vtscope.scan;

/**
 * One method of a blocking call chain.
 *
 * @param className the class, binary name with dots
 * @param method the method's name
 * @param descriptor its descriptor
 * @param line the line where it makes the next call of the chain, or -1 (the blocking JDK method
 *     the chain ends in, or code without line numbers)
 * @param virtual whether the call that reached it was a virtual or interface call the scan took to
 *     this implementation, one of several the receiver could be
 */
public record ChainStep(
    String className, String method, String descriptor, int line, boolean virtual) {

  /** {@code a.b.C.m}. */
  public String qualifiedMethod() {
    return className + "." + method;
  }
}
