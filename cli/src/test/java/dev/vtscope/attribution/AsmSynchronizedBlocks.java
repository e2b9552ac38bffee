package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * The test oracle for {@link SynchronizedBlockLocator}: the same rules over ASM's reading of the
 * class file (vtscope's code once used exactly this). Finds the {@code synchronized} blocks of a
 * class from its bytes. Compilers protect the body of a block with a catch-all handler that
 * releases the monitor ({@code monitorexit}) and rethrows; the protected range is the body, so a
 * frame whose bytecode index lies inside it holds that monitor. A frame at the {@code monitorenter}
 * itself is still waiting to enter and holds nothing.
 */
final class AsmSynchronizedBlocks {

  /**
   * A synchronized block's body.
   *
   * @param startBci first bytecode index inside the block
   * @param endBci first bytecode index after the protected range
   * @param lines the source lines, or null when the class has no line numbers
   */
  record Region(int startBci, int endBci, LineRange lines) {
    SynchronizedBlockLocator.Region own() {
      return new SynchronizedBlockLocator.Region(startBci, endBci, lines);
    }

    boolean contains(int bci) {
      return bci >= startBci && bci < endBci;
    }

    int size() {
      return endBci - startBci;
    }
  }

  private final Map<String, List<Region>> regionsByMethod = new HashMap<>();
  private final Map<String, int[][]> linesByMethod = new HashMap<>();

  java.util.Set<String> methods() {
    return linesByMethod.keySet();
  }

  List<Region> regions(String methodNameAndDescriptor) {
    return regionsByMethod.getOrDefault(methodNameAndDescriptor, List.of());
  }

  /** Reads {@code classBytes}; throws IllegalArgumentException for bytes ASM cannot read. */
  AsmSynchronizedBlocks(byte[] classBytes) {
    ClassReader reader = new ClassReader(classBytes);
    ClassNode node = new ClassNode();
    reader.accept(node, 0);
    // ASM resolves label offsets only when it writes code. Writing with the reader's constant pool
    // keeps every instruction's encoding, so the resolved offsets are the original bytecode
    // indexes.
    node.accept(new ClassWriter(reader, 0));
    for (MethodNode method : node.methods) {
      List<Region> regions = regions(method);
      if (!regions.isEmpty()) {
        regionsByMethod.put(method.name + method.desc, regions);
      }
      linesByMethod.put(method.name + method.desc, lineTable(method));
    }
  }

  /**
   * Whether these bytes are the ones that ran: the line they give for {@code bci} is the line JFR
   * recorded. False when the method is missing or the lines differ (another build of the class).
   */
  boolean matches(String methodNameAndDescriptor, int bci, int recordedLine) {
    int[][] table = linesByMethod.get(methodNameAndDescriptor);
    if (table == null) {
      return false;
    }
    if (recordedLine < 0 || table.length == 0) {
      return true; // nothing to compare
    }
    // the entry that starts last at or before bci: a binary search over the sorted table
    int low = 0;
    int high = table.length - 1;
    int line = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (table[mid][0] <= bci) {
        line = table[mid][1];
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return line == recordedLine;
  }

  private static int[][] lineTable(MethodNode method) {
    List<int[]> entries = new ArrayList<>();
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof LineNumberNode ln) {
        entries.add(new int[] {ln.start.getLabel().getOffset(), ln.line});
      }
    }
    // sorted by start; of entries with the same start, the first in the code counts
    entries.sort(java.util.Comparator.comparingInt(e -> e[0]));
    List<int[]> table = new ArrayList<>();
    for (int[] e : entries) {
      if (table.isEmpty() || table.get(table.size() - 1)[0] != e[0]) {
        table.add(e);
      }
    }
    return table.toArray(new int[0][]);
  }

  /**
   * The innermost block of {@code method} (name + descriptor) that contains {@code bci}, or null.
   */
  Region innermost(String methodNameAndDescriptor, int bci) {
    Region best = null;
    for (Region r : regionsByMethod.getOrDefault(methodNameAndDescriptor, List.of())) {
      if (r.contains(bci) && (best == null || r.size() < best.size())) {
        best = r;
      }
    }
    return best;
  }

  private static List<Region> regions(MethodNode method) {
    List<Region> result = new ArrayList<>();
    if (method.tryCatchBlocks == null) {
      return result;
    }
    for (TryCatchBlockNode block : method.tryCatchBlocks) {
      if (block.type != null || !releasesMonitor(block.handler)) {
        continue;
      }
      int start = block.start.getLabel().getOffset();
      int end = block.end.getLabel().getOffset();
      if (start >= end || block.handler == block.start) {
        continue;
      }
      // The handler protects itself too (javac's pattern); that range is not the body.
      if (block.handler.getLabel().getOffset() <= start) {
        continue;
      }
      result.add(new Region(start, end, lines(method, block)));
    }
    return result;
  }

  /** Whether the handler's first instructions release a monitor before anything else happens. */
  private static boolean releasesMonitor(LabelNode handler) {
    int seen = 0;
    for (AbstractInsnNode insn = handler.getNext();
        insn != null && seen < 6;
        insn = insn.getNext()) {
      if (insn.getOpcode() < 0) {
        continue; // labels, line numbers, frames
      }
      seen++;
      if (insn.getOpcode() == Opcodes.MONITOREXIT) {
        return true;
      }
      if (insn.getOpcode() == Opcodes.ATHROW
          || isInvoke(insn.getOpcode())
          || isJump(insn.getOpcode())) {
        return false;
      }
    }
    return false;
  }

  private static boolean isInvoke(int opcode) {
    return opcode >= Opcodes.INVOKEVIRTUAL && opcode <= Opcodes.INVOKEDYNAMIC;
  }

  private static boolean isJump(int opcode) {
    return (opcode >= Opcodes.IFEQ && opcode <= Opcodes.RETURN)
        || opcode == Opcodes.IFNULL
        || opcode == Opcodes.IFNONNULL;
  }

  /**
   * Lines from the {@code synchronized} statement (the line of the monitorenter) to the body's
   * last.
   */
  private static LineRange lines(MethodNode method, TryCatchBlockNode block) {
    int start = block.start.getLabel().getOffset();
    int end = block.end.getLabel().getOffset();
    int first = -1;
    int last = -1;
    int current = -1;
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof LineNumberNode ln) {
        current = ln.line;
        int offset = ln.start.getLabel().getOffset();
        if (offset >= start && offset < end) {
          first = first < 0 ? ln.line : Math.min(first, ln.line);
          last = Math.max(last, ln.line);
        }
      } else if (insn.getOpcode() == Opcodes.MONITORENTER && insn.getNext() != null) {
        AbstractInsnNode next = insn.getNext();
        while (next != null && next.getOpcode() < 0 && !(next instanceof LabelNode)) {
          next = next.getNext();
        }
        if (next == block.start && current > 0) {
          first = first < 0 ? current : Math.min(first, current);
          last = Math.max(last, current);
        }
      }
    }
    return first < 0 ? null : new LineRange(first, last);
  }
}
