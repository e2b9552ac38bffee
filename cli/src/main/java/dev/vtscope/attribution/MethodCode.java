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
 * @param nameAndDescriptor the method's name followed by its descriptor, e.g. {@code run()V}
 * @param code the bytecode
 * @param handlers the exception table, four ints per entry: start, end, handler, catch type index
 *     (0 for a handler that catches everything)
 * @param lines the line number table, two ints per entry (start, line), sorted by start
 */
record MethodCode(
    String nameAndDescriptor,
    byte[] code,
    int[] handlers,
    int[] lines,
    boolean synchronizedMethod) {

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
    try {
      return new Reader(bytes).methods();
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("the class file ends early", e);
    }
  }

  private static final class Reader {
    private final byte[] b;
    private int p;
    private int[] utf8Offsets;

    Reader(byte[] bytes) {
      this.b = bytes;
    }

    List<MethodCode> methods() {
      if (u4() != 0xCAFEBABE) {
        throw new IllegalArgumentException("not a class file");
      }
      p += 4; // minor and major version
      int count = u2();
      utf8Offsets = new int[count];
      for (int i = 1; i < count; i++) {
        int tag = b[p++] & 0xff;
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
      p += 6; // access flags, this class, super class
      int interfaces = u2();
      p += 2 * interfaces;
      int fields = u2();
      for (int i = 0; i < fields; i++) {
        p += 6;
        skipAttributes();
      }
      int methods = u2();
      List<MethodCode> result = new ArrayList<>(methods);
      for (int i = 0; i < methods; i++) {
        int access = u2();
        String name = utf8(u2());
        String descriptor = utf8(u2());
        int attributes = u2();
        for (int a = 0; a < attributes; a++) {
          String attribute = utf8(u2());
          int length = u4();
          int end = p + length;
          if ("Code".equals(attribute)) {
            result.add(code(name + descriptor, (access & ACC_SYNCHRONIZED) != 0));
          }
          p = end;
        }
      }
      return result;
    }

    private static final int ACC_SYNCHRONIZED = 0x0020;

    private MethodCode code(String nameAndDescriptor, boolean synchronizedMethod) {
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
      List<int[]> lineEntries = new ArrayList<>();
      int attributes = u2();
      for (int a = 0; a < attributes; a++) {
        String attribute = utf8(u2());
        int attributeLength = u4();
        int end = p + attributeLength;
        if ("LineNumberTable".equals(attribute)) {
          int n = u2();
          for (int i = 0; i < n; i++) {
            lineEntries.add(new int[] {u2(), u2()});
          }
        }
        p = end;
      }
      // a method may have several tables; entries are looked up by start
      lineEntries.sort((x, y) -> Integer.compare(x[0], y[0]));
      int[] lines = new int[2 * lineEntries.size()];
      for (int i = 0; i < lineEntries.size(); i++) {
        lines[2 * i] = lineEntries.get(i)[0];
        lines[2 * i + 1] = lineEntries.get(i)[1];
      }
      return new MethodCode(nameAndDescriptor, code, handlers, lines, synchronizedMethod);
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

    /** A Utf8 constant, in the JVM's modified UTF-8 (1 to 3 bytes per UTF-16 unit). */
    private String utf8(int index) {
      if (index <= 0 || index >= utf8Offsets.length || utf8Offsets[index] == 0) {
        throw new IllegalArgumentException("a name that is not a Utf8 constant");
      }
      int at = utf8Offsets[index];
      int length = u2At(at);
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
