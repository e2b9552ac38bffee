package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a class file says about the calls its methods make: its supertypes, its methods' modifiers,
 * and for each method every call of another method with the number of monitors its own code holds
 * there. Read with the class-file reader attribution uses, for a static scan of a class path.
 *
 * @param name binary name with dots ({@code a.b.C$D})
 * @param superName the superclass, or null for {@code java.lang.Object} and module descriptors
 * @param interfaces the interfaces it implements, or extends for an interface
 * @param isInterface whether it is an interface
 * @param methods every method it declares, with or without code
 */
public record ClassCode(
    String name,
    String superName,
    List<String> interfaces,
    boolean isInterface,
    List<DeclaredMethod> methods) {

  private static final int ACC_INTERFACE = 0x0200;

  public ClassCode {
    interfaces = List.copyOf(interfaces);
    methods = List.copyOf(methods);
  }

  /**
   * Reads a class file.
   *
   * @throws IllegalArgumentException when the bytes are not a class file this reader can walk
   */
  public static ClassCode read(byte[] bytes) {
    MethodCode.ClassFileFacts facts = MethodCode.readClass(bytes);
    Map<String, MethodCode> code = new java.util.HashMap<>();
    for (MethodCode m : facts.code()) {
      code.put(m.nameAndDescriptor(), m);
    }
    List<DeclaredMethod> methods = new ArrayList<>(facts.declared().size());
    for (Map.Entry<String, Integer> e : facts.declared().entrySet()) {
      String nameAndDescriptor = e.getKey();
      int paren = nameAndDescriptor.indexOf('(');
      MethodCode m = code.get(nameAndDescriptor);
      methods.add(
          new DeclaredMethod(
              nameAndDescriptor.substring(0, paren),
              nameAndDescriptor.substring(paren),
              e.getValue(),
              m == null ? List.of() : calls(m),
              m == null ? null : lines(m)));
    }
    return new ClassCode(
        facts.name(),
        facts.superName(),
        facts.interfaces(),
        (facts.access() & ACC_INTERFACE) != 0,
        methods);
  }

  /** The method {@code name} + {@code descriptor} this class declares, or null. */
  public DeclaredMethod method(String name, String descriptor) {
    for (DeclaredMethod m : methods) {
      if (m.name().equals(name) && m.descriptor().equals(descriptor)) {
        return m;
      }
    }
    return null;
  }

  private static List<CallSite> calls(MethodCode m) {
    int[] held = m.monitorsHeld();
    List<SynchronizedBlockLocator.Region> regions = null;
    List<CallSite> calls = new ArrayList<>();
    byte[] code = m.code();
    for (int bci = 0; bci < code.length; bci += m.instructionLength(bci)) {
      MethodCode.MemberRef ref = m.invoked(bci);
      if (ref == null) {
        continue;
      }
      int monitors = Math.max(held[bci], 0);
      LineRange block = null;
      if (monitors > 0) {
        if (regions == null) {
          regions = SynchronizedBlockLocator.regions(m);
        }
        block = innermost(regions, bci);
      }
      calls.add(
          new CallSite(
              ref.owner(),
              ref.name(),
              ref.descriptor(),
              CallSite.Kind.of(m.opcode(bci)),
              bci,
              m.lineAt(bci),
              monitors,
              block,
              held[bci] >= 0));
    }
    return calls;
  }

  private static LineRange innermost(List<SynchronizedBlockLocator.Region> regions, int bci) {
    SynchronizedBlockLocator.Region best = null;
    for (SynchronizedBlockLocator.Region r : regions) {
      if (r.contains(bci) && (best == null || r.size() < best.size())) {
        best = r;
      }
    }
    return best == null ? null : best.lines();
  }

  private static LineRange lines(MethodCode m) {
    int[] lines = m.lines();
    if (lines.length == 0) {
      return null;
    }
    int first = Integer.MAX_VALUE;
    int last = Integer.MIN_VALUE;
    for (int i = 1; i < lines.length; i += 2) {
      first = Math.min(first, lines[i]);
      last = Math.max(last, lines[i]);
    }
    return new LineRange(first, last);
  }
}
