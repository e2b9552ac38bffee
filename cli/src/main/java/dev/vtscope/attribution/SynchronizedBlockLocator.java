package dev.vtscope.attribution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the {@code synchronized} blocks of a class from its bytes. Compilers protect the body of a
 * block with a catch-all handler that releases the monitor ({@code monitorexit}) and rethrows; the
 * protected range is the body, so a frame whose bytecode index lies inside it holds that monitor. A
 * frame at the {@code monitorenter} itself is still waiting to enter and holds nothing.
 */
final class SynchronizedBlockLocator {

  /**
   * A synchronized block's body.
   *
   * @param startBci first bytecode index inside the block
   * @param endBci first bytecode index after the protected range
   * @param lines the source lines, or null when the class has no line numbers
   */
  record Region(int startBci, int endBci, LineRange lines) {

    boolean contains(int bci) {
      return bci >= startBci && bci < endBci;
    }

    int size() {
      return endBci - startBci;
    }
  }

  private final Map<String, List<Region>> regionsByMethod = new HashMap<>();
  private final Map<String, MethodCode> methods = new HashMap<>();

  /** From a table rather than a class file: the methods whose blocks are not known, else null. */
  private final java.util.Set<String> unknownMethods;

  private SynchronizedBlockLocator(
      Map<String, List<Region>> regions, java.util.Set<String> unknownMethods) {
    this.regionsByMethod.putAll(regions);
    this.unknownMethods = unknownMethods;
  }

  /**
   * The blocks of a class as {@link JdkMonitorTable} gives them: no line numbers to compare with
   * the recording's (the table holds only blocks every update of the release has alike), and none
   * for the methods whose blocks differ between updates, which are not checked.
   */
  static SynchronizedBlockLocator fromTable(
      Map<String, List<Region>> regions, java.util.Set<String> unknownMethods) {
    return new SynchronizedBlockLocator(regions, unknownMethods);
  }

  /** Whether the blocks came from vtscope's table of a JDK release rather than a class file. */
  boolean fromTable() {
    return unknownMethods != null;
  }

  /** Reads {@code classBytes}; throws IllegalArgumentException for bytes that are no class file. */
  SynchronizedBlockLocator(byte[] classBytes) {
    this.unknownMethods = null;
    for (MethodCode method : MethodCode.read(classBytes)) {
      List<Region> regions = regions(method);
      if (!regions.isEmpty()) {
        regionsByMethod.put(method.nameAndDescriptor(), regions);
      }
      methods.put(method.nameAndDescriptor(), method);
    }
  }

  /**
   * Whether these bytes are the ones that ran: the line they give for {@code bci} is the line JFR
   * recorded. False when the method is missing or the lines differ (another build of the class).
   */
  boolean matches(String methodNameAndDescriptor, int bci, int recordedLine) {
    if (unknownMethods != null) {
      return !unknownMethods.contains(methodNameAndDescriptor);
    }
    MethodCode method = methods.get(methodNameAndDescriptor);
    if (method == null) {
      return false;
    }
    if (recordedLine < 0 || method.lines().length == 0) {
      return true; // nothing to compare
    }
    return method.lineAt(bci) == recordedLine;
  }

  /**
   * For a frame known only by its method's name and its line, as a thread dump gives it: whether
   * these bytes are the ones that ran, as far as that tells: a method of that name has code on that
   * line, or has no line numbers to compare. False when no method has the name (another build).
   */
  boolean matchesAtLine(String methodName, int line) {
    if (unknownMethods != null) {
      return unknownMethods.stream().noneMatch(m -> m.startsWith(methodName + "("));
    }
    for (MethodCode method : methods.values()) {
      if (method.name().equals(methodName)) {
        if (line < 0 || method.lines().length == 0 || method.hasLine(line)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The blocks of a method (name + descriptor), in the order of its exception table. */
  List<Region> regions(String methodNameAndDescriptor) {
    return regionsByMethod.getOrDefault(methodNameAndDescriptor, List.of());
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

  /**
   * For a frame known only by its method's name and its line, as a thread dump gives it: the
   * innermost block of a method of that name whose body's lines hold {@code line}, or null. The
   * line of the {@code synchronized} statement itself, where a thread waits to enter, is outside
   * the body unless the body starts on it.
   */
  Region innermostAtLine(String methodName, int line) {
    Region best = null;
    for (Map.Entry<String, List<Region>> e : regionsByMethod.entrySet()) {
      if (!e.getKey().startsWith(methodName + "(")) {
        continue;
      }
      for (Region r : e.getValue()) {
        if (r.lines() != null
            && r.lines().first() <= line
            && line <= r.lines().last()
            && (best == null || r.size() < best.size())) {
          best = r;
        }
      }
    }
    return best;
  }

  /**
   * For a frame known only by its method's name and its line, as a thread dump gives it: whether a
   * {@code synchronized} method of that name has code on that line (a dump does not say a method's
   * modifiers, a recording does).
   */
  boolean synchronizedMethodAtLine(String methodName, int line) {
    for (MethodCode method : methods.values()) {
      if (method.synchronizedMethod() && method.name().equals(methodName) && method.hasLine(line)) {
        return true;
      }
    }
    return false;
  }

  /**
   * For a frame known only by its method's name and its line, as a thread dump gives it: whether a
   * thread there is where it enters a monitor, and whether it holds one of this method's already.
   * HotSpot reports a thread blocked in a {@code monitorenter} at the instruction after it, the
   * first line of the block's body, so both that line and the {@code synchronized} statement's own
   * count; so does a {@code synchronized} method's first line. Null when no method of that name
   * enters a monitor there, and from a table, which keeps no instructions.
   *
   * @return whether the frame holds a monitor of its own method while it enters another
   */
  Boolean entersAtLine(String methodName, int line) {
    for (MethodCode method : methods.values()) {
      if (!method.name().equals(methodName)) {
        continue;
      }
      for (int bci = 0; bci < method.code().length; bci += method.instructionLength(bci)) {
        if (method.opcode(bci) == MethodCode.MONITORENTER
            && (method.lineAt(bci) == line
                || (bci + 1 < method.code().length && method.lineAt(bci + 1) == line))) {
          return innermost(method.nameAndDescriptor(), bci) != null;
        }
      }
      int[] lines = method.lines();
      if (method.synchronizedMethod() && lines.length > 0 && firstLine(lines) == line) {
        return false;
      }
    }
    return null;
  }

  private static int firstLine(int[] lines) {
    int first = Integer.MAX_VALUE;
    for (int i = 1; i < lines.length; i += 2) {
      first = Math.min(first, lines[i]);
    }
    return first;
  }

  static List<Region> regions(MethodCode method) {
    List<Region> result = new ArrayList<>();
    for (int i = 0; i < method.handlerCount(); i++) {
      int start = method.handlerStart(i);
      int end = method.handlerEnd(i);
      int handler = method.handlerPc(i);
      if (!method.catchesAll(i) || start >= end || handler == start) {
        continue;
      }
      // The handler protects itself too (javac's pattern); that range is not the body.
      if (handler <= start || !releasesMonitor(method, handler)) {
        continue;
      }
      result.add(new Region(start, end, lines(method, start, end)));
    }
    return result;
  }

  /** Whether the handler's first instructions release a monitor before anything else happens. */
  private static boolean releasesMonitor(MethodCode method, int handler) {
    int bci = handler;
    for (int seen = 0; seen < 6 && bci < method.code().length; seen++) {
      int opcode = method.opcode(bci);
      if (opcode == MethodCode.MONITOREXIT) {
        return true;
      }
      if (opcode == MethodCode.ATHROW || MethodCode.leaves(opcode)) {
        return false;
      }
      bci += method.instructionLength(bci);
    }
    return false;
  }

  /**
   * Lines from the {@code synchronized} statement (the line of the monitorenter just before the
   * body) to the body's last.
   */
  private static LineRange lines(MethodCode method, int start, int end) {
    int first = -1;
    int last = -1;
    int[] lines = method.lines();
    for (int i = 0; i < lines.length; i += 2) {
      if (lines[i] >= start && lines[i] < end) {
        first = first < 0 ? lines[i + 1] : Math.min(first, lines[i + 1]);
        last = Math.max(last, lines[i + 1]);
      }
    }
    int enter = start - 1;
    if (enter >= 0
        && method.opcode(enter) == MethodCode.MONITORENTER
        && startsInstruction(method, enter)) {
      int line = lastLineAt(method, enter);
      if (line > 0) {
        first = first < 0 ? line : Math.min(first, line);
        last = Math.max(last, line);
      }
    }
    return first < 0 ? null : new LineRange(first, last);
  }

  /** Whether an instruction starts at {@code bci} (a byte inside another one may look alike). */
  private static boolean startsInstruction(MethodCode method, int bci) {
    int at = 0;
    while (at < bci) {
      at += method.instructionLength(at);
    }
    return at == bci;
  }

  /** The line of the last entry, in table order, that starts at or before {@code bci}, or -1. */
  private static int lastLineAt(MethodCode method, int bci) {
    int line = -1;
    int[] lines = method.lines();
    for (int i = 0; i < lines.length && lines[i] <= bci; i += 2) {
      line = lines[i + 1];
    }
    return line;
  }
}
