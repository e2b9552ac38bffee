package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One method's code as a class file holds it: the bytecode, the exception table and the line
 * numbers, read straight from the class file's bytes (JVMS chapter 4). Attribution needs nothing
 * else, so nothing else is decoded: the constant pool is only walked to find the names of methods
 * and attributes. Reading this little by hand rather than with a bytecode library keeps a short
 * analysis from loading and verifying a library's classes (a noticeable part of a small recording's
 * analysis), and reads class files of any version.
 *
 * @param name the method's name
 * @param descriptor its descriptor
 * @param code the bytecode
 * @param handlers the exception table, four ints per entry: start, end, handler, catch type index
 *     (0 for a handler that catches everything)
 * @param lines the line number table, two ints per entry (start, line), sorted by start
 * @param access the method's access flags
 * @param pool the class's constant pool, to name what an invoke instruction calls
 */
record MethodCode(
    String name,
    String descriptor,
    byte[] code,
    int[] handlers,
    int[] lines,
    int access,
    ConstantPool pool) {

  static final int ACC_STATIC = 0x0008;
  static final int ACC_SYNCHRONIZED = 0x0020;
  static final int ACC_NATIVE = 0x0100;
  static final int ACC_ABSTRACT = 0x0400;

  /**
   * The method's name followed by its descriptor, e.g. {@code run()V}: made when asked for, as a
   * scan reads millions of methods and never asks.
   */
  String nameAndDescriptor() {
    return name + descriptor;
  }

  boolean synchronizedMethod() {
    return (access & ACC_SYNCHRONIZED) != 0;
  }

  static final int ATHROW = 0xbf;
  static final int MONITORENTER = 0xc2;
  static final int MONITOREXIT = 0xc3;

  int handlerCount() {
    return handlers.length / 4;
  }

  int handlerStart(int i) {
    return handlers[4 * i];
  }

  int handlerEnd(int i) {
    return handlers[4 * i + 1];
  }

  int handlerPc(int i) {
    return handlers[4 * i + 2];
  }

  boolean catchesAll(int i) {
    return handlers[4 * i + 3] == 0;
  }

  int opcode(int bci) {
    return code[bci] & 0xff;
  }

  /**
   * The length of the instruction at {@code bci}, from the JVMS's instruction formats.
   *
   * @throws IllegalArgumentException for an opcode the JVMS does not define, or an instruction that
   *     runs past the code
   */
  int instructionLength(int bci) {
    int opcode = opcode(bci);
    int length;
    switch (opcode) {
      case 0xaa -> { // tableswitch: padding, default, low, high, then high - low + 1 offsets
        int p = align(bci);
        long count = (long) int4(p + 8) - int4(p + 4) + 1;
        if (count < 0 || count > code.length) {
          throw new IllegalArgumentException("a tableswitch of impossible size at " + bci);
        }
        length = (int) (p - bci + 12 + 4 * count);
      }
      case 0xab -> { // lookupswitch: padding, default, count, then count pairs
        int p = align(bci);
        long pairs = int4(p + 4);
        if (pairs < 0 || pairs > code.length) {
          throw new IllegalArgumentException("a lookupswitch of impossible size at " + bci);
        }
        length = (int) (p - bci + 8 + 8 * pairs);
      }
      case 0xc4 -> length = bci + 1 < code.length && opcode(bci + 1) == 0x84 ? 6 : 4; // wide
      default -> {
        length = opcode < LENGTHS.length ? LENGTHS[opcode] : 0;
        if (length == 0) {
          throw new IllegalArgumentException("an undefined opcode " + opcode + " at " + bci);
        }
      }
    }
    if (bci + length > code.length) {
      throw new IllegalArgumentException("an instruction runs past the code at " + bci);
    }
    return length;
  }

  /** Whether the opcode hands control elsewhere: an invocation, a jump, a switch or a return. */
  static boolean leaves(int opcode) {
    return (opcode >= 0x99 && opcode <= 0xb1) // if*, goto, jsr, ret, switches, returns
        || (opcode >= 0xb6 && opcode <= 0xba) // invocations
        || (opcode >= 0xc6 && opcode <= 0xc9); // ifnull, ifnonnull, goto_w, jsr_w
  }

  /**
   * The line in effect at {@code bci}: that of the entry with the greatest start at or before it
   * (the first such entry where several start there), or -1.
   */
  int lineAt(int bci) {
    // the last entry starting at or before bci, by binary search over the sorted starts
    int low = 0;
    int high = lines.length / 2 - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (lines[2 * mid] <= bci) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (found < 0) {
      return -1;
    }
    while (found > 0 && lines[2 * (found - 1)] == lines[2 * found]) {
      found--; // the first of the entries that start there
    }
    return lines[2 * found + 1];
  }

  /** The deepest nesting of monitors the data flow keeps apart; more is counted as this many. */
  private static final int MAX_MONITORS = 32;

  /**
   * How many monitors the method's own code holds when each instruction runs, by bytecode index (-1
   * where no instruction starts, or none is reached): carried along every jump, switch,
   * fall-through and exception edge from 0 at the start. {@code monitorenter} adds one for what
   * follows it, {@code monitorexit} takes one away, and a handler starts with the count of the
   * instruction it covers, before that instruction ran (each handler an exception there can reach:
   * those covering it up to the first that catches everything). Where paths meet with different
   * counts the greater is kept: a call that may run under a monitor is one that can pin. A {@code
   * synchronized} method's own monitor is not counted.
   */
  int[] monitorsHeld() {
    int[] held = new int[code.length];
    java.util.Arrays.fill(held, -1);
    if (code.length == 0) {
      return held;
    }
    int[] work = new int[code.length + 1];
    boolean[] queued = new boolean[code.length];
    int size = 0;
    held[0] = 0;
    work[size++] = 0;
    queued[0] = true;
    while (size > 0) {
      int bci = work[--size];
      queued[bci] = false;
      int d = held[bci];
      int opcode = opcode(bci);
      int after =
          opcode == MONITORENTER
              ? Math.min(d + 1, MAX_MONITORS)
              : opcode == MONITOREXIT ? Math.max(d - 1, 0) : d;
      int length = instructionLength(bci);
      for (int next : successors(bci, opcode, length)) {
        size = flow(next, after, held, work, queued, size);
      }
      // The JVM tries the handlers in table order, and one that catches everything ends the search:
      // javac lists a synchronized block's own handler (which releases the monitor) before the
      // handlers of a try around the block, so those are never reached holding the monitor.
      for (int i = 0; i < handlerCount(); i++) {
        if (bci >= handlerStart(i) && bci < handlerEnd(i)) {
          size = flow(handlerPc(i), d, held, work, queued, size);
          if (catchesAll(i)) {
            break;
          }
        }
      }
    }
    return held;
  }

  private int flow(int to, int d, int[] held, int[] work, boolean[] queued, int size) {
    if (to < 0 || to >= code.length || d <= held[to]) {
      return size;
    }
    held[to] = d;
    if (!queued[to]) {
      queued[to] = true;
      work[size++] = to;
    }
    return size;
  }

  /** Where control goes after the instruction at {@code bci}, within this method. */
  private int[] successors(int bci, int opcode, int length) {
    return switch (opcode) {
      case 0xa7, 0xa8 -> new int[] {bci + short2(bci + 1)}; // goto, jsr (its ret is not followed)
      case 0xc8 -> new int[] {bci + int4(bci + 1)}; // goto_w
      case 0xc9 -> new int[] {bci + int4(bci + 1), bci + length}; // jsr_w
      case 0xaa -> { // tableswitch
        int p = align(bci);
        int count = int4(p + 8) - int4(p + 4) + 1;
        int[] targets = new int[count + 1];
        targets[0] = bci + int4(p);
        for (int i = 0; i < count; i++) {
          targets[i + 1] = bci + int4(p + 12 + 4 * i);
        }
        yield targets;
      }
      case 0xab -> { // lookupswitch
        int p = align(bci);
        int pairs = int4(p + 4);
        int[] targets = new int[pairs + 1];
        targets[0] = bci + int4(p);
        for (int i = 0; i < pairs; i++) {
          targets[i + 1] = bci + int4(p + 12 + 8 * i);
        }
        yield targets;
      }
      case 0xa9, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, ATHROW -> new int[0]; // ret, returns
      default -> {
        if ((opcode >= 0x99 && opcode <= 0xa6) || opcode == 0xc6 || opcode == 0xc7) {
          yield new int[] {bci + short2(bci + 1), bci + length}; // if*, ifnull, ifnonnull
        }
        yield new int[] {bci + length};
      }
    };
  }

  private int short2(int at) {
    return (short) ((code[at] & 0xff) << 8 | (code[at + 1] & 0xff));
  }

  /** What the invoke instruction at {@code bci} calls, or null when it is no invoke of a method. */
  MemberRef invoked(int bci) {
    int index = invokedIndex(bci);
    return index < 0 ? null : pool.method(index);
  }

  /**
   * The constant pool index of what the invoke instruction at {@code bci} calls, or -1 when it is
   * no invoke of a method.
   */
  int invokedIndex(int bci) {
    int opcode = opcode(bci);
    if (opcode < 0xb6 || opcode > 0xb9) {
      return -1; // invokedynamic names a call site, not a method
    }
    return (code[bci + 1] & 0xff) << 8 | (code[bci + 2] & 0xff);
  }

  /**
   * The method a lambda or method reference made by the {@code invokedynamic} at {@code bci} runs:
   * the implementation method handle its {@code LambdaMetafactory} bootstrap names; null for any
   * other instruction or bootstrap.
   */
  MemberRef lambdaImplementation(int bci) {
    if (opcode(bci) != INVOKEDYNAMIC) {
      return null;
    }
    return pool.lambdaImplementation((code[bci + 1] & 0xff) << 8 | (code[bci + 2] & 0xff));
  }

  static final int INVOKEDYNAMIC = 0xba;

  /**
   * The string the {@code ldc} or {@code ldc_w} at {@code bci} pushes, or null for any other
   * instruction or constant.
   */
  String stringConstant(int bci) {
    int opcode = opcode(bci);
    int index =
        opcode == 0x12
            ? code[bci + 1] & 0xff
            : opcode == 0x13 ? (code[bci + 1] & 0xff) << 8 | (code[bci + 2] & 0xff) : -1;
    return index < 0 ? null : pool.string(index);
  }

  /** Whether a jump, a switch or an exception handler leads to {@code bci}. */
  boolean jumpTarget(int bci) {
    for (int i = 0; i < handlerCount(); i++) {
      if (handlerPc(i) == bci) {
        return true;
      }
    }
    for (int at = 0; at < code.length; at += instructionLength(at)) {
      int opcode = opcode(at);
      if (leaves(opcode) && !(opcode >= 0xb6 && opcode <= 0xba)) {
        for (int next : successors(at, opcode, instructionLength(at))) {
          if (next == bci) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether the line number table has an entry for {@code line}. */
  boolean hasLine(int line) {
    for (int i = 1; i < lines.length; i += 2) {
      if (lines[i] == line) {
        return true;
      }
    }
    return false;
  }

  private int align(int bci) {
    return (bci + 4) & ~3;
  }

  private int int4(int at) {
    if (at < 0 || at + 4 > code.length) {
      throw new IllegalArgumentException("a switch runs past the code");
    }
    return (code[at] & 0xff) << 24
        | (code[at + 1] & 0xff) << 16
        | (code[at + 2] & 0xff) << 8
        | (code[at + 3] & 0xff);
  }

  /** Instruction lengths by opcode; 0 where the length varies (switches, wide) or is undefined. */
  private static final int[] LENGTHS = new int[0xca];

  static {
    Arrays.fill(LENGTHS, 0x00, 0x10, 1); // nop .. dconst_1
    LENGTHS[0x10] = 2; // bipush
    LENGTHS[0x11] = 3; // sipush
    LENGTHS[0x12] = 2; // ldc
    LENGTHS[0x13] = 3; // ldc_w
    LENGTHS[0x14] = 3; // ldc2_w
    Arrays.fill(LENGTHS, 0x15, 0x1a, 2); // iload .. aload
    Arrays.fill(LENGTHS, 0x1a, 0x36, 1); // iload_0 .. saload
    Arrays.fill(LENGTHS, 0x36, 0x3b, 2); // istore .. astore
    Arrays.fill(LENGTHS, 0x3b, 0x84, 1); // istore_0 .. lxor
    LENGTHS[0x84] = 3; // iinc
    Arrays.fill(LENGTHS, 0x85, 0x99, 1); // conversions, comparisons
    Arrays.fill(LENGTHS, 0x99, 0xa9, 3); // if*, goto, jsr
    LENGTHS[0xa9] = 2; // ret
    Arrays.fill(LENGTHS, 0xac, 0xb2, 1); // returns
    Arrays.fill(LENGTHS, 0xb2, 0xb9, 3); // field access, invokevirtual/special/static
    LENGTHS[0xb9] = 5; // invokeinterface
    LENGTHS[0xba] = 5; // invokedynamic
    LENGTHS[0xbb] = 3; // new
    LENGTHS[0xbc] = 2; // newarray
    LENGTHS[0xbd] = 3; // anewarray
    LENGTHS[0xbe] = 1; // arraylength
    LENGTHS[0xbf] = 1; // athrow
    LENGTHS[0xc0] = 3; // checkcast
    LENGTHS[0xc1] = 3; // instanceof
    LENGTHS[0xc2] = 1; // monitorenter
    LENGTHS[0xc3] = 1; // monitorexit
    LENGTHS[0xc5] = 4; // multianewarray
    LENGTHS[0xc6] = 3; // ifnull
    LENGTHS[0xc7] = 3; // ifnonnull
    LENGTHS[0xc8] = 5; // goto_w
    LENGTHS[0xc9] = 5; // jsr_w
  }

  /**
   * The methods of a class file that have code.
   *
   * @throws IllegalArgumentException when the bytes are not a class file this reader can walk
   */
  static List<MethodCode> read(byte[] bytes) {
    return readClass(bytes).code();
  }

  /**
   * The class a class file declares: its name, supertypes and every method, with the code of those
   * that have some.
   *
   * @throws IllegalArgumentException when the bytes are not a class file this reader can walk
   */
  static ClassFileFacts readClass(byte[] bytes) {
    try {
      return new Reader(bytes).read();
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("the class file ends early", e);
    }
  }

  /**
   * What {@link #readClass} finds.
   *
   * @param name the class's binary name with dots ({@code a.b.C$D})
   * @param superName its superclass, or null for {@code java.lang.Object} and modules
   * @param interfaces the interfaces it names
   * @param access its access flags
   * @param declared every method, in the class file's order
   * @param code the methods that have code
   */
  record ClassFileFacts(
      String name,
      String superName,
      List<String> interfaces,
      int access,
      List<Declared> declared,
      List<MethodCode> code) {}

  /**
   * A method a class file declares.
   *
   * @param name its name
   * @param descriptor its descriptor
   * @param access its access flags
   * @param code its code, or null when it has none
   */
  record Declared(String name, String descriptor, int access, MethodCode code) {}

  /**
   * A member a {@code Methodref} or {@code InterfaceMethodref} names.
   *
   * @param owner the class named, binary name with dots
   * @param name the method's name
   * @param descriptor its descriptor
   */
  record MemberRef(String owner, String name, String descriptor) {}

  /** The method references of a constant pool, resolved once per entry when first asked for. */
  static final class ConstantPool {
    private final byte[] b;
    private final int[] offsets;
    private final byte[] tags;
    private final Reader reader;
    private final MemberRef[] refs;
    // per bootstrap method, the constant of the method its LambdaMetafactory call runs, or 0
    private int[] lambdaImplementations = new int[0];

    private ConstantPool(byte[] b, int[] offsets, byte[] tags, Reader reader) {
      this.b = b;
      this.offsets = offsets;
      this.tags = tags;
      this.reader = reader;
      this.refs = new MemberRef[offsets.length];
    }

    /** The number of its entries, plus one: indexes run from 1 below it. */
    int size() {
      return offsets.length;
    }

    /** The method entry {@code index} names, or null when it is none. */
    synchronized MemberRef method(int index) {
      if (index <= 0 || index >= offsets.length || (tags[index] != 10 && tags[index] != 11)) {
        return null;
      }
      MemberRef ref = refs[index];
      if (ref == null) {
        int at = offsets[index];
        int classIndex = u2(at);
        int nameAndType = u2(at + 2);
        if (tags[classIndex] != 7 || tags[nameAndType] != 12) {
          return null;
        }
        String owner = reader.utf8(u2(offsets[classIndex])).replace('/', '.');
        int nat = offsets[nameAndType];
        ref = new MemberRef(owner, reader.utf8(u2(nat)), reader.utf8(u2(nat + 2)));
        refs[index] = ref;
      }
      return ref;
    }

    /** The String constant {@code index}, or null when it is none. */
    synchronized String string(int index) {
      if (index <= 0 || index >= offsets.length || tags[index] != 8) {
        return null;
      }
      return reader.utf8(u2(offsets[index]));
    }

    /** What the lambda made by the {@code InvokeDynamic} constant {@code index} runs, or null. */
    MemberRef lambdaImplementation(int index) {
      if (index <= 0 || index >= offsets.length || tags[index] != 18) {
        return null;
      }
      int bootstrap = u2(offsets[index]);
      return bootstrap < lambdaImplementations.length
          ? method(lambdaImplementations[bootstrap])
          : null;
    }

    private int u2(int at) {
      return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
    }
  }

  private static final class Reader {
    private final byte[] b;
    private int p;
    private int[] utf8Offsets;
    private int[] offsets;
    private byte[] tags;
    private ConstantPool pool;

    Reader(byte[] bytes) {
      this.b = bytes;
    }

    ClassFileFacts read() {
      if (u4() != 0xCAFEBABE) {
        throw new IllegalArgumentException("not a class file");
      }
      p += 4; // minor and major version
      int count = u2();
      utf8Offsets = new int[count];
      offsets = new int[count];
      tags = new byte[count];
      for (int i = 1; i < count; i++) {
        int tag = b[p++] & 0xff;
        tags[i] = (byte) tag;
        offsets[i] = p;
        switch (tag) {
          case 1 -> { // Utf8
            utf8Offsets[i] = p;
            p += 2 + u2At(p);
          }
          case 3, 4, 9, 10, 11, 12, 17, 18 -> p += 4;
          case 5, 6 -> { // Long, Double: two slots
            p += 8;
            i++;
          }
          case 7, 8, 16, 19, 20 -> p += 2;
          case 15 -> p += 3;
          default -> throw new IllegalArgumentException("an unknown constant pool tag " + tag);
        }
      }
      pool = new ConstantPool(b, offsets, tags, this);
      int classAccess = u2();
      String name = className(u2());
      int superIndex = u2();
      String superName = superIndex == 0 ? null : className(superIndex);
      int interfaceCount = u2();
      List<String> interfaces = new ArrayList<>(interfaceCount);
      for (int i = 0; i < interfaceCount; i++) {
        interfaces.add(className(u2()));
      }
      int fields = u2();
      for (int i = 0; i < fields; i++) {
        p += 6;
        skipAttributes();
      }
      int methods = u2();
      List<MethodCode> result = new ArrayList<>(methods);
      List<Declared> declared = new ArrayList<>(methods);
      for (int i = 0; i < methods; i++) {
        int access = u2();
        String methodName = utf8(u2());
        String descriptor = utf8(u2());
        MethodCode code = null;
        int attributes = u2();
        for (int a = 0; a < attributes; a++) {
          String attribute = utf8(u2());
          int length = u4();
          int end = p + length;
          if ("Code".equals(attribute)) {
            code = code(methodName, descriptor, access);
            result.add(code);
          }
          p = end;
        }
        declared.add(new Declared(methodName, descriptor, access, code));
      }
      int classAttributes = u2();
      for (int a = 0; a < classAttributes; a++) {
        String attribute = utf8(u2());
        int end = u4();
        end += p;
        if ("BootstrapMethods".equals(attribute)) {
          pool.lambdaImplementations = lambdaImplementations();
        }
        p = end;
      }
      return new ClassFileFacts(name, superName, interfaces, classAccess, declared, result);
    }

    /**
     * For each bootstrap method, the Methodref constant of the implementation handle a {@code
     * LambdaMetafactory} call is given (its second argument), or 0.
     */
    private int[] lambdaImplementations() {
      int count = u2();
      int[] found = new int[count];
      for (int i = 0; i < count; i++) {
        int handle = u2();
        int arguments = u2();
        int second = 0;
        for (int j = 0; j < arguments; j++) {
          int argument = u2();
          if (j == 1) {
            second = argument;
          }
        }
        if (isHandle(handle) && isHandle(second)) {
          MemberRef bootstrap = pool.method(u2At(offsets[handle] + 1));
          if (bootstrap != null && bootstrap.owner().equals("java.lang.invoke.LambdaMetafactory")) {
            found[i] = u2At(offsets[second] + 1);
          }
        }
      }
      return found;
    }

    private boolean isHandle(int index) {
      return index > 0 && index < tags.length && tags[index] == 15;
    }

    private String className(int index) {
      if (index <= 0 || index >= tags.length || tags[index] != 7) {
        throw new IllegalArgumentException("a class name that is not a Class constant");
      }
      return utf8(u2At(offsets[index])).replace('/', '.');
    }

    private MethodCode code(String name, String descriptor, int access) {
      p += 4; // max stack, max locals
      int length = u4();
      if (length < 0 || length > b.length - p) {
        throw new IllegalArgumentException("code runs past the class file");
      }
      byte[] code = Arrays.copyOfRange(b, p, p + length);
      p += length;
      int entries = u2();
      int[] handlers = new int[4 * entries];
      for (int i = 0; i < handlers.length; i++) {
        handlers[i] = u2();
      }
      int[] lines = new int[0];
      int attributes = u2();
      for (int a = 0; a < attributes; a++) {
        String attribute = utf8(u2());
        int attributeLength = u4();
        int end = p + attributeLength;
        if ("LineNumberTable".equals(attribute)) {
          int n = u2();
          int at = lines.length;
          lines = Arrays.copyOf(lines, at + 2 * n);
          for (int i = 0; i < n; i++) {
            lines[at + 2 * i] = u2();
            lines[at + 2 * i + 1] = u2();
          }
        }
        p = end;
      }
      // a method may have several tables, and entries in any order; they are looked up by start
      sortByStart(lines);
      return new MethodCode(name, descriptor, code, handlers, lines, access, pool);
    }

    /** Sorts (start, line) pairs by start, keeping the order of equal starts. */
    private static void sortByStart(int[] lines) {
      boolean sorted = true;
      for (int i = 2; i < lines.length && sorted; i += 2) {
        sorted = lines[i - 2] <= lines[i];
      }
      if (sorted) {
        return;
      }
      List<int[]> pairs = new ArrayList<>();
      for (int i = 0; i < lines.length; i += 2) {
        pairs.add(new int[] {lines[i], lines[i + 1]});
      }
      pairs.sort((x, y) -> Integer.compare(x[0], y[0]));
      for (int i = 0; i < pairs.size(); i++) {
        lines[2 * i] = pairs.get(i)[0];
        lines[2 * i + 1] = pairs.get(i)[1];
      }
    }

    private void skipAttributes() {
      int attributes = u2();
      for (int a = 0; a < attributes; a++) {
        p += 2;
        int length = u4();
        if (length < 0) {
          throw new IllegalArgumentException("an attribute of impossible length");
        }
        p += length;
      }
    }

    /** Utf8 constants decoded so far: attribute names recur in every method. */
    private String[] decoded;

    /** A Utf8 constant, in the JVM's modified UTF-8 (1 to 3 bytes per UTF-16 unit). */
    private String utf8(int index) {
      if (index <= 0 || index >= utf8Offsets.length || utf8Offsets[index] == 0) {
        throw new IllegalArgumentException("a name that is not a Utf8 constant");
      }
      if (decoded == null) {
        decoded = new String[utf8Offsets.length];
      }
      String known = decoded[index];
      if (known == null) {
        known = decode(index);
        decoded[index] = known;
      }
      return known;
    }

    private String decode(int index) {
      int at = utf8Offsets[index];
      int length = u2At(at);
      boolean ascii = true;
      for (int i = at + 2, end = at + 2 + length; i < end && ascii; i++) {
        ascii = b[i] > 0; // modified UTF-8 writes no zero byte
      }
      if (ascii) {
        return new String(b, at + 2, length, java.nio.charset.StandardCharsets.ISO_8859_1);
      }
      char[] chars = new char[length];
      int n = 0;
      int i = at + 2;
      int end = i + length;
      while (i < end) {
        int c = b[i++] & 0xff;
        if (c < 0x80) {
          chars[n++] = (char) c;
        } else if ((c & 0xe0) == 0xc0) {
          chars[n++] = (char) ((c & 0x1f) << 6 | (b[i++] & 0x3f));
        } else if ((c & 0xf0) == 0xe0) {
          chars[n++] = (char) ((c & 0x0f) << 12 | (b[i++] & 0x3f) << 6 | (b[i++] & 0x3f));
        } else {
          throw new IllegalArgumentException("malformed modified UTF-8");
        }
      }
      return new String(chars, 0, n);
    }

    private int u2() {
      int v = u2At(p);
      p += 2;
      return v;
    }

    private int u2At(int at) {
      return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
    }

    private int u4() {
      int v =
          (b[p] & 0xff) << 24
              | (b[p + 1] & 0xff) << 16
              | (b[p + 2] & 0xff) << 8
              | (b[p + 3] & 0xff);
      p += 4;
      return v;
    }
  }
}
