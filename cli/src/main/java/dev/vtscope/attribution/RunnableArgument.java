package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.List;

/**
 * The class of the {@code Runnable} a {@code java.lang.Thread} constructor is given, when the code
 * right before the call shows it: {@code new Thread(this)}, or {@code Task t = new Task(…); …; new
 * Thread(t, "name")}. Only what a short look back can prove: the arguments after the {@code
 * Runnable} each pushed by one instruction, nothing jumping in between, and a local variable that
 * is no parameter and is stored once in the method, from a constructor call right before the store.
 * Anything else (a field, a parameter, a factory's result) is unknown.
 */
final class RunnableArgument {

  private static final String RUNNABLE = "Ljava/lang/Runnable;";

  private RunnableArgument() {}

  /**
   * @param className the calling method's class, binary name with dots
   * @param m the calling method
   * @param bci the constructor call
   * @param descriptor the constructor's descriptor
   * @return the {@code Runnable}'s class, binary name with dots, or null when the code does not
   *     show
   */
  static String classOf(String className, MethodCode m, int bci, String descriptor) {
    List<String> parameters = parameters(descriptor);
    int runnable = parameters.indexOf(RUNNABLE);
    if (runnable < 0) {
      return null;
    }
    List<Integer> starts = new ArrayList<>();
    for (int at = 0; at < bci; at += m.instructionLength(at)) {
      starts.add(at);
    }
    int push = starts.size() - (parameters.size() - runnable);
    if (push < 0) {
      return null;
    }
    for (int i = push + 1; i < starts.size(); i++) {
      if (!pushesOneValue(m.opcode(starts.get(i)))) {
        return null;
      }
    }
    for (int i = push + 1; i <= starts.size(); i++) {
      if (m.jumpTarget(i < starts.size() ? starts.get(i) : bci)) {
        return null;
      }
    }
    int at = starts.get(push);
    int local = loadedLocal(m, at);
    if (local < 0) {
      return null;
    }
    boolean isStatic = (m.access() & MethodCode.ACC_STATIC) != 0;
    if (local == 0 && !isStatic) {
      return className;
    }
    return local >= parameterSlots(m.nameAndDescriptor(), isStatic) ? storedOnce(m, local) : null;
  }

  /**
   * The class of the constructor whose result is the only value {@code local} is ever given, or
   * null.
   */
  private static String storedOnce(MethodCode m, int local) {
    int before = producerOfOnlyStore(m, local);
    if (before < 0 || m.opcode(before) != 0xb7) {
      return null;
    }
    MethodCode.MemberRef constructor = m.invoked(before);
    return constructor != null && constructor.name().equals("<init>") ? constructor.owner() : null;
  }

  /**
   * The instruction right before the only store to {@code local} in the method, when nothing jumps
   * to that store: what gives the local its one value. -1 when the local is stored more than once,
   * never, or the store is a jump target.
   */
  private static int producerOfOnlyStore(MethodCode m, int local) {
    int store = -1;
    int before = -1;
    int previous = -1;
    for (int at = 0; at < m.code().length; previous = at, at += m.instructionLength(at)) {
      if (storedLocal(m, at) == local) {
        if (store >= 0) {
          return -1;
        }
        store = at;
        before = previous;
      }
    }
    return store < 0 || m.jumpTarget(store) ? -1 : before;
  }

  /** Whether {@code local} is none of the method's parameters ({@code this} included). */
  static boolean notAParameter(MethodCode m, int local) {
    return local
        >= parameterSlots(m.nameAndDescriptor(), (m.access() & MethodCode.ACC_STATIC) != 0);
  }

  /** The local an {@code aload} at {@code at} reads, or -1 for any other instruction. */
  static int loadedLocal(MethodCode m, int at) {
    int opcode = m.opcode(at);
    if (opcode >= 0x2a && opcode <= 0x2d) {
      return opcode - 0x2a;
    }
    if (opcode == 0x19) {
      return m.code()[at + 1] & 0xff;
    }
    if (opcode == 0xc4 && m.opcode(at + 1) == 0x19) {
      return (m.code()[at + 2] & 0xff) << 8 | (m.code()[at + 3] & 0xff);
    }
    return -1;
  }

  /** The local an {@code astore} at {@code at} writes, or -1 for any other instruction. */
  static int storedLocal(MethodCode m, int at) {
    int opcode = m.opcode(at);
    if (opcode >= 0x4b && opcode <= 0x4e) {
      return opcode - 0x4b;
    }
    if (opcode == 0x3a) {
      return m.code()[at + 1] & 0xff;
    }
    if (opcode == 0xc4 && m.opcode(at + 1) == 0x3a) {
      return (m.code()[at + 2] & 0xff) << 8 | (m.code()[at + 3] & 0xff);
    }
    return -1;
  }

  /** An instruction that pushes one value and takes none: a constant, a local, a static field. */
  private static boolean pushesOneValue(int opcode) {
    return (opcode >= 0x01 && opcode <= 0x2d) || opcode == 0xb2;
  }

  /** The local slots a method's parameters take, {@code this} included. */
  private static int parameterSlots(String nameAndDescriptor, boolean isStatic) {
    int slots = isStatic ? 0 : 1;
    for (String p : parameters(nameAndDescriptor.substring(nameAndDescriptor.indexOf('(')))) {
      slots += p.equals("J") || p.equals("D") ? 2 : 1;
    }
    return slots;
  }

  /** The parameter types of a method descriptor, each as the descriptor writes it. */
  private static List<String> parameters(String descriptor) {
    List<String> types = new ArrayList<>();
    int i = 1;
    while (i < descriptor.length() && descriptor.charAt(i) != ')') {
      int start = i;
      while (descriptor.charAt(i) == '[') {
        i++;
      }
      if (descriptor.charAt(i) == 'L') {
        i = descriptor.indexOf(';', i);
      }
      i++;
      types.add(descriptor.substring(start, i));
    }
    return types;
  }
}
