package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a class file says about the calls its methods make: its supertypes, its methods' modifiers,
 * and for each method the calls of other methods with the number of monitors its own code holds
 * there. Read with the class-file reader attribution uses, for a static scan of a class path.
 */
public final class ClassCode {

  /** Which calls a reading keeps: a scan drops those it would never follow, to save memory. */
  @FunctionalInterface
  public interface CallFilter {
    /**
     * @param owner the class the call names, binary name with dots
     * @param name the method's name
     * @param descriptor its descriptor
     */
    boolean keep(String owner, String name, String descriptor);
  }

  private static final int ACC_INTERFACE = 0x0200;

  private final String name;
  private final String superName;
  private final List<String> interfaces;
  private final boolean isInterface;
  private final List<DeclaredMethod> methods;

  /**
   * @param name binary name with dots ({@code a.b.C$D})
   * @param superName the superclass, or null for {@code java.lang.Object} and module descriptors
   * @param interfaces the interfaces it implements, or extends for an interface
   * @param isInterface whether it is an interface
   * @param methods every method it declares, with or without code
   */
  public ClassCode(
      String name,
      String superName,
      List<String> interfaces,
      boolean isInterface,
      List<DeclaredMethod> methods) {
    this.name = name;
    this.superName = superName;
    this.interfaces = List.copyOf(interfaces);
    this.isInterface = isInterface;
    this.methods = List.copyOf(methods);
  }

  public String name() {
    return name;
  }

  public String superName() {
    return superName;
  }

  public List<String> interfaces() {
    return interfaces;
  }

  public boolean isInterface() {
    return isInterface;
  }

  public List<DeclaredMethod> methods() {
    return methods;
  }

  /**
   * Reads a class file, keeping every call.
   *
   * @throws IllegalArgumentException when the bytes are not a class file this reader can walk
   */
  public static ClassCode read(byte[] bytes) {
    return read(bytes, (owner, name, descriptor) -> true);
  }

  /**
   * Reads a class file, keeping the calls {@code keep} wants.
   *
   * @throws IllegalArgumentException when the bytes are not a class file this reader can walk
   */
  public static ClassCode read(byte[] bytes, CallFilter keep) {
    MethodCode.ClassFileFacts facts = MethodCode.readClass(bytes);
    Map<String, MethodCode> code = new HashMap<>();
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
              nameAndDescriptor,
              paren,
              e.getValue(),
              m == null ? List.of() : calls(m, keep),
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
    return method(name + descriptor);
  }

  /**
   * The method this class declares by its name followed by its descriptor, or null. A search of the
   * list: a class has a few methods, and a map per class would be most of a scan's memory.
   */
  public DeclaredMethod method(String nameAndDescriptor) {
    for (DeclaredMethod m : methods) {
      if (m.nameAndDescriptor().equals(nameAndDescriptor)) {
        return m;
      }
    }
    return null;
  }

  private static List<CallSite> calls(MethodCode m, CallFilter keep) {
    byte[] code = m.code();
    boolean monitors = false;
    for (int bci = 0; bci < code.length; bci += m.instructionLength(bci)) {
      monitors |= m.opcode(bci) == MethodCode.MONITORENTER;
    }
    // without a monitorenter every instruction holds none; the flow would only find dead code
    int[] held = monitors ? m.monitorsHeld() : null;
    List<SynchronizedBlockLocator.Region> regions = null;
    List<CallSite> calls = new ArrayList<>();
    for (int bci = 0; bci < code.length; bci += m.instructionLength(bci)) {
      MethodCode.MemberRef ref = m.invoked(bci);
      if (ref == null || !keep.keep(ref.owner(), ref.name(), ref.descriptor())) {
        continue;
      }
      int count = held == null ? 0 : Math.max(held[bci], 0);
      LineRange block = null;
      if (count > 0) {
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
              count,
              block,
              held == null || held[bci] >= 0));
    }
    return calls.isEmpty() ? List.of() : calls;
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
