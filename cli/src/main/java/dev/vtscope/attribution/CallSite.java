package dev.vtscope.attribution;

/**
 * A call of a method from a method's code.
 *
 * @param owner the class the instruction names (binary name with dots), which may inherit the
 *     method rather than declare it
 * @param name the method called
 * @param descriptor its descriptor
 * @param kind how it is called
 * @param bci the bytecode index of the instruction
 * @param line its source line, or -1
 * @param monitors the monitors the calling method's code holds there, by {@code monitorenter}; a
 *     {@code synchronized} method's own is not counted
 * @param block the lines of the innermost {@code synchronized} block around the call, or null
 * @param reached whether the data flow reaches the instruction at all
 * @param runnableClass for a {@code java.lang.Thread} constructor given a {@code Runnable}, the
 *     class of that {@code Runnable} when the code shows it: {@code this} (the calling method's
 *     class), or a local variable stored once, from a constructor of that class; else null
 * @param blocking how the call blocks where the code around it tells better than the table of
 *     blocking JDK methods ({@code URL.openStream()} of a URL that {@code getResource} gave reads a
 *     file, not a socket); else null
 */
public record CallSite(
    String owner,
    String name,
    String descriptor,
    Kind kind,
    int bci,
    int line,
    int monitors,
    LineRange block,
    boolean reached,
    String runnableClass,
    BlockingKind blocking) {

  /** The invoke instruction. */
  public enum Kind {
    /** {@code invokevirtual}: the receiver's class chooses the method. */
    VIRTUAL,
    /** {@code invokespecial}: a constructor, a private method or a superclass' method. */
    SPECIAL,
    /** {@code invokestatic}. */
    STATIC,
    /** {@code invokeinterface}: the receiver's class chooses the method. */
    INTERFACE,
    /**
     * {@code invokedynamic} making a lambda or method reference: no call, the method is what the
     * function object it makes runs, whoever calls it.
     */
    LAMBDA;

    static Kind of(int opcode) {
      return switch (opcode) {
        case 0xb6 -> VIRTUAL;
        case 0xb7 -> SPECIAL;
        case 0xb8 -> STATIC;
        case MethodCode.INVOKEDYNAMIC -> LAMBDA;
        default -> INTERFACE;
      };
    }
  }
}
