package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

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
  // the methods by the hash of their name and descriptor, for a binary search: a map per class
  // would be most of a scan's memory, a search of the list too slow for classes of many methods
  private final int[] hashes;
  private final DeclaredMethod[] byHash;

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
    // each method's hash computed once, sorted with its index in the low half: a comparator that
    // hashed both methods of every comparison cost a scan several percent of its CPU
    long[] keyed = new long[this.methods.size()];
    for (int i = 0; i < keyed.length; i++) {
      keyed[i] = (long) hash(this.methods.get(i)) << 32 | i;
    }
    java.util.Arrays.sort(keyed);
    this.byHash = new DeclaredMethod[keyed.length];
    this.hashes = new int[keyed.length];
    for (int i = 0; i < keyed.length; i++) {
      hashes[i] = (int) (keyed[i] >> 32);
      byHash[i] = this.methods.get((int) keyed[i]);
    }
  }

  private static int hash(DeclaredMethod m) {
    return hash(m.name(), m.descriptor());
  }

  /** The hash of name + descriptor, without making that string: a scan asks for every call. */
  private static int hash(String name, String descriptor) {
    int p = 1;
    for (int n = descriptor.length(), base = 31; n > 0; n >>= 1, base *= base) {
      if ((n & 1) != 0) {
        p *= base;
      }
    }
    return name.hashCode() * p + descriptor.hashCode();
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
    return read(bytes, (owner, name, descriptor) -> true, UnaryOperator.identity());
  }

  /**
   * Reads a class file, keeping the calls {@code keep} wants.
   *
   * @param names gives each class name, method name and descriptor read the instance to keep: a
   *     scan of a class path keeps one of each, however many classes name it
   * @throws IllegalArgumentException when the bytes are not a class file this reader can walk
   */
  public static ClassCode read(byte[] bytes, CallFilter keep, UnaryOperator<String> names) {
    MethodCode.ClassFileFacts facts = MethodCode.readClass(bytes);
    List<DeclaredMethod> methods = new ArrayList<>(facts.declared().size());
    // what the filter said of each constant: a class calls the same method from many places
    byte[] kept = facts.code().isEmpty() ? null : new byte[facts.code().get(0).pool().size()];
    // and the names of each it kept, as the scan keeps them
    MethodCode.MemberRef[] named = kept == null ? null : new MethodCode.MemberRef[kept.length];
    for (MethodCode.Declared d : facts.declared()) {
      MethodCode m = d.code();
      methods.add(
          new DeclaredMethod(
              names.apply(d.name()),
              names.apply(d.descriptor()),
              d.access(),
              m == null ? List.of() : calls(facts.name(), m, keep, kept, named, names),
              m == null ? null : lines(m)));
    }
    List<String> interfaces = new ArrayList<>(facts.interfaces().size());
    for (String i : facts.interfaces()) {
      interfaces.add(names.apply(i));
    }
    return new ClassCode(
        names.apply(facts.name()),
        facts.superName() == null ? null : names.apply(facts.superName()),
        interfaces,
        (facts.access() & ACC_INTERFACE) != 0,
        methods);
  }

  /** The method {@code name} + {@code descriptor} this class declares, or null. */
  public DeclaredMethod method(String name, String descriptor) {
    int hash = hash(name, descriptor);
    int i = java.util.Arrays.binarySearch(hashes, hash);
    if (i < 0) {
      return null;
    }
    while (i > 0 && hashes[i - 1] == hash) {
      i--;
    }
    for (; i < hashes.length && hashes[i] == hash; i++) {
      if (byHash[i].name().equals(name) && byHash[i].descriptor().equals(descriptor)) {
        return byHash[i];
      }
    }
    return null;
  }

  private static final byte KEEP = 1;
  private static final byte DROP = 2;

  private static List<CallSite> calls(
      String className,
      MethodCode m,
      CallFilter keep,
      byte[] kept,
      MethodCode.MemberRef[] named,
      UnaryOperator<String> names) {
    byte[] code = m.code();
    boolean monitors = false;
    for (int bci = 0; bci < code.length; bci += m.instructionLength(bci)) {
      monitors |= m.opcode(bci) == MethodCode.MONITORENTER;
    }
    // without a monitorenter every instruction holds none; the flow would only find dead code
    int[] held = monitors ? m.monitorsHeld() : null;
    List<SynchronizedBlockLocator.Region> regions = null;
    List<CallSite> calls = new ArrayList<>();
    for (int bci = 0, previous = -1;
        bci < code.length;
        previous = bci, bci += m.instructionLength(bci)) {
      MethodCode.MemberRef lambda = m.lambdaImplementation(bci);
      if (lambda != null) {
        calls.add(
            new CallSite(
                names.apply(lambda.owner()),
                names.apply(lambda.name()),
                names.apply(lambda.descriptor()),
                CallSite.Kind.LAMBDA,
                bci,
                m.lineAt(bci),
                0,
                null,
                held == null || held[bci] >= 0,
                null,
                null));
        continue;
      }
      int index = m.invokedIndex(bci);
      if (index < 0 || index >= kept.length || kept[index] == DROP) {
        continue;
      }
      MethodCode.MemberRef ref = named[index];
      if (ref == null) {
        MethodCode.MemberRef read = m.invoked(bci);
        if (read == null) {
          continue;
        }
        if (kept[index] == 0) {
          kept[index] = keep.keep(read.owner(), read.name(), read.descriptor()) ? KEEP : DROP;
          if (kept[index] == DROP) {
            continue;
          }
        }
        ref =
            new MethodCode.MemberRef(
                names.apply(read.owner()),
                names.apply(read.name()),
                names.apply(read.descriptor()));
        named[index] = ref;
      }
      if (previous >= 0 && literalAddressLookup(m, previous, bci, ref)) {
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
              held == null || held[bci] >= 0,
              threadRunnable(ref) ? runnableClass(className, m, bci, ref, names) : null,
              previous >= 0 && ResourceRead.of(m, previous, bci, ref) ? BlockingKind.FILE : null));
    }
    return calls.isEmpty() ? List.of() : calls;
  }

  private static String runnableClass(
      String className,
      MethodCode m,
      int bci,
      MethodCode.MemberRef ref,
      UnaryOperator<String> names) {
    String runnable = RunnableArgument.classOf(className, m, bci, ref.descriptor());
    return runnable == null ? null : names.apply(runnable);
  }

  private static boolean threadRunnable(MethodCode.MemberRef ref) {
    return ref.owner().equals("java.lang.Thread")
        && ref.name().equals("<init>")
        && ref.descriptor().contains("Ljava/lang/Runnable;");
  }

  /**
   * Whether the call at {@code bci} looks a host up by a string constant that is an IPv4 or IPv6
   * literal ({@code InetAddress.getByName("0.0.0.0")}): the JDK parses a literal, it asks no name
   * service, so the call does not block. Only when the constant is pushed right before the call and
   * nothing jumps to the call, so that no other string can reach it.
   */
  private static boolean literalAddressLookup(
      MethodCode m, int previous, int bci, MethodCode.MemberRef ref) {
    if (!ref.descriptor().startsWith("(Ljava/lang/String;)")) {
      return false;
    }
    String text = m.stringConstant(previous);
    return text != null
        && (IPV4.matcher(text).matches() || ipv6(text))
        && BlockingCalls.standard()
            .match(ref.owner(), ref.name(), ref.descriptor())
            .filter(b -> b.kind() == BlockingKind.HOST_LOOKUP)
            .isPresent()
        && !m.jumpTarget(bci);
  }

  private static final java.util.regex.Pattern IPV4 =
      java.util.regex.Pattern.compile(
          "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

  private static final java.util.regex.Pattern HEX_GROUP =
      java.util.regex.Pattern.compile("[0-9a-fA-F]{1,4}");

  /**
   * An IPv6 literal as {@code InetAddress} reads one without a lookup: eight groups of up to four
   * hex digits, or fewer around one {@code ::}, the last two groups possibly an IPv4 address,
   * optionally in brackets; no scope.
   */
  static boolean ipv6(String text) {
    String t =
        text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
    int gap = t.indexOf("::");
    if (gap != t.lastIndexOf("::") || (gap < 0 && t.indexOf(':') < 0)) {
      return false;
    }
    List<String> groups = new ArrayList<>();
    for (String half :
        gap < 0 ? new String[] {t} : new String[] {t.substring(0, gap), t.substring(gap + 2)}) {
      if (!half.isEmpty()) {
        groups.addAll(List.of(half.split(":", -1)));
      }
    }
    int size = 0;
    for (int i = 0; i < groups.size(); i++) {
      String g = groups.get(i);
      if (i == groups.size() - 1 && IPV4.matcher(g).matches()) {
        size += 2;
      } else if (HEX_GROUP.matcher(g).matches()) {
        size++;
      } else {
        return false;
      }
    }
    return gap < 0 ? size == 8 : size < 8;
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
