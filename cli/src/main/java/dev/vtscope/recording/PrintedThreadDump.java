package dev.vtscope.recording;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A thread dump as {@code jcmd Thread.print} prints it, and as a {@code jdk.ThreadDump} event holds
 * it, read: its Java platform threads, what each carries, and the frames it prints.
 *
 * <p>What the JDKs print, as read from real dumps: a header line per thread ({@code "name" #24
 * [6923] daemon prio=5 os_prio=0 cpu=2.06ms elapsed=3.01s tid=… nid=… status [0x…]}), the thread's
 * state and frames; a carrier adds {@code Carrying virtual thread #23} after its header. JDK 21
 * prints only the carrier's own frames, from {@code Continuation.run} down: what the virtual thread
 * runs is not in the dump. JDK 25 also prints, after the carrier's frames, {@code Mounted virtual
 * thread #27} and the virtual thread's frames. The JVM's own threads (GC, compiler workers) have no
 * {@code #id} and are left out.
 *
 * @param threads the Java platform threads, in the dump's order
 */
public record PrintedThreadDump(List<PrintedThread> threads) {

  // the name is everything up to the last quote before the id: a name may hold quotes itself; an
  // id has at most 18 digits, so that it parses as a long
  private static final Pattern HEADER = Pattern.compile("^\"(.*)\" #(\\d{1,18})\\b(.*)$");
  private static final Pattern CPU = Pattern.compile("\\bcpu=(\\d+(?:\\.\\d+)?)ms\\b");
  private static final Pattern ELAPSED = Pattern.compile("\\belapsed=(\\d+(?:\\.\\d+)?)s\\b");
  private static final Pattern STATE = Pattern.compile("^\\s+java\\.lang\\.Thread\\.State: (\\w+)");
  private static final Pattern VIRTUAL =
      Pattern.compile("^\\s+(Carrying|Mounted) virtual thread #(\\d{1,18})\\b");

  public PrintedThreadDump {
    threads = List.copyOf(threads);
  }

  /**
   * One platform thread of the dump.
   *
   * @param tid its Java thread id
   * @param name its name
   * @param cpuNanos the CPU time it has used, or -1 when the dump does not say
   * @param elapsedNanos how long it has lived, or -1 when the dump does not say
   * @param state its {@link Thread.State} name, or null when the dump does not say
   * @param stack its own frames, innermost first
   * @param carrying the id of the virtual thread it carries, or -1
   * @param mountedStack the frames of the virtual thread it carries, innermost first, or null when
   *     the dump does not print them (JDK 21)
   */
  public record PrintedThread(
      long tid,
      String name,
      long cpuNanos,
      long elapsedNanos,
      String state,
      List<Frame> stack,
      long carrying,
      List<Frame> mountedStack) {
    public PrintedThread {
      stack = List.copyOf(stack);
      mountedStack = mountedStack == null ? null : List.copyOf(mountedStack);
    }

    /** Whether it carries a virtual thread. */
    public boolean isCarrier() {
      return carrying >= 0;
    }
  }

  /** Reads {@code text}; lines it does not know are skipped, so any text reads as some dump. */
  public static PrintedThreadDump parse(String text) {
    List<PrintedThread> threads = new ArrayList<>();
    Builder current = null;
    for (String line : text.split("\\R")) {
      Matcher header = HEADER.matcher(line);
      if (header.matches()) {
        if (current != null) {
          threads.add(current.build());
        }
        current = new Builder(Long.parseLong(header.group(2)), header.group(1), header.group(3));
        continue;
      }
      if (line.startsWith("\"")) {
        // a JVM thread without an id ends the Java thread before it
        if (current != null) {
          threads.add(current.build());
        }
        current = null;
        continue;
      }
      if (current == null) {
        continue;
      }
      Matcher state = STATE.matcher(line);
      if (state.find()) {
        current.state = state.group(1);
        continue;
      }
      Matcher virtual = VIRTUAL.matcher(line);
      if (virtual.find()) {
        current.carrying = Long.parseLong(virtual.group(2));
        if (virtual.group(1).equals("Mounted")) {
          current.mounted = new ArrayList<>();
        }
        continue;
      }
      String t = line.strip();
      if (t.startsWith("at ")) {
        Frame frame = printedFrame(t.substring(3));
        if (frame != null) {
          (current.mounted != null ? current.mounted : current.stack).add(frame);
        }
      }
    }
    if (current != null) {
      threads.add(current.build());
    }
    return new PrintedThreadDump(threads);
  }

  private static final class Builder {
    final long tid;
    final String name;
    final String rest;
    String state;
    long carrying = -1;
    final List<Frame> stack = new ArrayList<>();
    List<Frame> mounted;

    Builder(long tid, String name, String rest) {
      this.tid = tid;
      this.name = name;
      this.rest = rest;
    }

    PrintedThread build() {
      return new PrintedThread(
          tid,
          name,
          nanos(CPU.matcher(rest), 1_000_000),
          nanos(ELAPSED.matcher(rest), 1_000_000_000),
          state,
          stack,
          carrying,
          mounted);
    }

    private static long nanos(Matcher m, long unit) {
      if (!m.find()) {
        return -1;
      }
      try {
        return Math.round(Double.parseDouble(m.group(1)) * unit);
      } catch (NumberFormatException e) {
        return -1;
      }
    }
  }

  /**
   * A frame as a thread dump prints it: {@code class.method(module@version/File.java:12)}, {@code
   * class.method(File.java:12)} for a class on the class path, {@code (Native Method)}, {@code
   * (Unknown Source)}; a hidden class keeps its address ({@code LambdaForm$MH/0x…}). Null for text
   * that is no frame.
   */
  public static Frame printedFrame(String text) {
    int open = text.lastIndexOf('(');
    if (open < 0 || !text.endsWith(")")) {
      return null;
    }
    String source = text.substring(open + 1, text.length() - 1);
    String module = null;
    int slash = source.indexOf('/');
    if (slash >= 0) {
      String m = source.substring(0, slash);
      int at = m.indexOf('@');
      module = at < 0 ? m : m.substring(0, at);
      source = source.substring(slash + 1);
    }
    return frame(module, text.substring(0, open), source);
  }

  /**
   * A frame from its parts as a thread dump writes them: {@code class.method} and the source in
   * brackets ({@code File.java:12}, {@code Native Method}, {@code Unknown Source}); null when the
   * first names no method.
   *
   * @param module the module, or null for a class on the class path
   */
  public static Frame frame(String module, String qualifiedMethod, String source) {
    int dot = qualifiedMethod.lastIndexOf('.');
    if (dot <= 0) {
      return null;
    }
    int line = -1;
    int colon = source.lastIndexOf(':');
    if (colon >= 0) {
      try {
        line = Integer.parseInt(source.substring(colon + 1));
      } catch (NumberFormatException e) {
        line = -1;
      }
    }
    return frame(
        module,
        qualifiedMethod.substring(0, dot),
        qualifiedMethod.substring(dot + 1),
        line,
        source.equals("Native Method"));
  }

  /**
   * A frame of a thread dump as a recording's: a dump names no bytecode index, descriptor or class
   * loader, so a frame of a JDK module counts as the boot loader's, any other as the application's.
   *
   * @param module the module, or null for a class on the class path
   */
  public static Frame frame(
      String module, String className, String method, int line, boolean nativeMethod) {
    boolean jdk = module != null && (module.startsWith("java.") || module.startsWith("jdk."));
    return new Frame(
        className,
        method,
        null,
        line,
        -1,
        nativeMethod ? "Native" : null,
        nativeMethod ? Modifier.NATIVE : 0,
        jdk ? Frame.ClassLoaderKind.BOOT : Frame.ClassLoaderKind.APPLICATION);
  }
}
