package dev.vtscope.threaddump;

import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A thread dump as {@code jcmd PID Thread.print [-l]} and {@code jstack [-l]} print it, and as a
 * {@code jdk.ThreadDump} event holds it: the one reader of HotSpot's format.
 *
 * <p>What the JDKs print, as read from real dumps: an optional {@code PID:} line (jcmd), the local
 * time, {@code Full thread dump … (25.0.3+9-LTS mixed mode, sharing):}, then a header line per
 * thread ({@code "name" #24 [6923] daemon prio=5 os_prio=0 cpu=2.06ms elapsed=3.01s tid=… nid=…
 * status [0x…]}), its state and frames, each frame followed by its lock lines ({@code - locked
 * <0x…> (a C)}, {@code - waiting to lock <0x…> (a C)}, {@code - waiting on <0x…> (a C)}, {@code -
 * parking to wait for <0x…> (a C)}, {@code - waiting on the Class initialization monitor for C},
 * {@code - eliminated <…> (a C)}), and with {@code -l} its {@code Locked ownable synchronizers}.
 * The JVM's own threads (GC, compiler workers) have no {@code #id} and are left out. A carrier adds
 * {@code Carrying virtual thread #23} after its header; JDK 21 prints only the carrier's own frames
 * (and a class-initialisation wait of the virtual thread under the carrier's {@code
 * Continuation.run}, where it does not belong), JDK 25 also {@code Mounted virtual thread #27} and
 * the virtual thread's frames. The JVM's deadlock detector adds {@code Found one Java-level
 * deadlock} sections at the end, of platform threads only.
 *
 * <p>Each carried virtual thread is a thread of the dump too: virtual, its carrier named, its
 * frames those printed under {@code Mounted}, or none said (null) on JDK 21.
 */
public final class ThreadPrint {

  // the name is everything up to the last quote before the id: a name may hold quotes itself; an
  // id has at most 18 digits, so that it parses as a long
  private static final Pattern HEADER = Pattern.compile("^\"(.*)\" #(\\d{1,18})\\b(.*)$");
  private static final Pattern CPU = Pattern.compile("\\bcpu=(\\d+(?:\\.\\d+)?)ms\\b");
  private static final Pattern ELAPSED = Pattern.compile("\\belapsed=(\\d+(?:\\.\\d+)?)s\\b");
  private static final Pattern STATE = Pattern.compile("^\\s+java\\.lang\\.Thread\\.State: (\\w+)");
  private static final Pattern VIRTUAL =
      Pattern.compile("^\\s+(Carrying|Mounted) virtual thread #(\\d{1,18})\\b");
  private static final Pattern PID = Pattern.compile("^(\\d{1,18}):$");
  private static final Pattern VERSION = Pattern.compile("^Full thread dump .*\\((\\S+) .*\\):?$");
  private static final Pattern LOCK =
      Pattern.compile(
          "^- (waiting on|waiting to lock|waiting to re-lock in wait\\(\\)|locked|parking to wait"
              + " for|eliminated) +<([^>]*)>(?: \\(a (.+)\\))?$");
  private static final String CLASS_INIT = "- waiting on the Class initialization monitor for ";
  private static final Pattern OWNABLE = Pattern.compile("^- <([^>]*)> \\(a (.+)\\)$");

  private ThreadPrint() {}

  /** Reads {@code text}; lines it does not know are skipped, so any text reads as some dump. */
  public static ThreadDump parse(String text) {
    Reading r = new Reading();
    for (String line : text.split("\\R")) {
      r.line(line);
    }
    return r.dump();
  }

  private static final class Reading {
    final InternedStacks stacks = new InternedStacks(Frames::ofPrinted);
    final List<DumpedThread> threads = new ArrayList<>();
    final List<VmDeadlock> deadlocks = new ArrayList<>();
    long pid = -1;
    String version;
    int lines;
    boolean states;
    boolean owners;
    boolean mounted;
    Builder current;
    // a "Found one Java-level deadlock" section being read: its names and waits
    List<String> deadlockNames;
    List<String> deadlockWaits;
    boolean deadlockStacks;

    void line(String line) {
      lines++;
      if (lines <= 3 && pid < 0 && version == null) {
        Matcher m = PID.matcher(line.strip());
        if (m.matches()) {
          pid = Long.parseLong(m.group(1));
          return;
        }
      }
      if (version == null) {
        Matcher m = VERSION.matcher(line.strip());
        if (m.matches()) {
          version = m.group(1);
          return;
        }
      }
      if (line.startsWith("Found one Java-level deadlock")) {
        end();
        endDeadlock();
        deadlockNames = new ArrayList<>();
        deadlockWaits = new ArrayList<>();
        deadlockStacks = false;
        return;
      }
      if (deadlockNames != null) {
        deadlockLine(line);
        return;
      }
      Matcher header = HEADER.matcher(line);
      if (header.matches()) {
        end();
        current = new Builder(Long.parseLong(header.group(2)), header.group(1), header.group(3));
        return;
      }
      if (line.startsWith("\"")) {
        // a JVM thread without an id ends the Java thread before it
        end();
        return;
      }
      if (current == null) {
        return;
      }
      Matcher state = STATE.matcher(line);
      if (state.find()) {
        current.state = state.group(1);
        states = true;
        return;
      }
      Matcher virtual = VIRTUAL.matcher(line);
      if (virtual.find()) {
        current.carrying = Long.parseLong(virtual.group(2));
        if (virtual.group(1).equals("Mounted")) {
          current.mounted = new Side();
          mounted = true;
        }
        return;
      }
      String t = line.strip();
      if (t.startsWith("Locked ownable synchronizers:")) {
        current.ownable = new ArrayList<>();
        owners = true;
        return;
      }
      if (current.ownable != null) {
        Matcher o = OWNABLE.matcher(t);
        if (o.matches()) {
          current.ownable.add(address(o.group(1), o.group(2)));
        }
        return;
      }
      Side side = current.mounted != null ? current.mounted : current.own;
      if (t.startsWith("at ")) {
        side.frames.add(t.substring(3));
      } else if (t.startsWith(CLASS_INIT)) {
        Blocker b = new Blocker.ClassInit(t.substring(CLASS_INIT.length()).strip());
        if (current.mounted == null && current.carrying >= 0) {
          // JDK 21 prints the carried virtual thread's wait under the carrier's own frames
          current.carried.blocker(b);
        } else {
          side.blocker(b);
        }
      } else {
        Matcher lock = LOCK.matcher(t);
        if (lock.matches()) {
          ObjectRef ref = address(lock.group(2), lock.group(3));
          switch (lock.group(1)) {
            case "locked" -> side.monitor(ref);
            case "eliminated" -> side.monitor(null);
            case "parking to wait for" -> side.blocker(new Blocker.Parked(ref, -1));
            case "waiting on" -> side.blocker(new Blocker.MonitorWait(ref));
            default -> side.blocker(new Blocker.MonitorEnter(ref));
          }
        }
      }
    }

    private void deadlockLine(String line) {
      if (line.startsWith("Java stack information for the threads listed above")) {
        deadlockStacks = true;
        return;
      }
      if (line.startsWith("Found ") && line.contains("deadlock")) {
        endDeadlock();
        return;
      }
      if (deadlockStacks || line.isBlank() || line.startsWith("=")) {
        return;
      }
      if (line.startsWith("\"") && line.endsWith("\":")) {
        deadlockNames.add(line.substring(1, line.length() - 2));
        deadlockWaits.add("");
      } else if (!deadlockWaits.isEmpty()) {
        int last = deadlockWaits.size() - 1;
        String before = deadlockWaits.get(last);
        deadlockWaits.set(last, before.isEmpty() ? line.strip() : before + " " + line.strip());
      }
    }

    private void endDeadlock() {
      if (deadlockNames != null && !deadlockNames.isEmpty()) {
        deadlocks.add(new VmDeadlock(deadlockNames, deadlockWaits));
      }
      deadlockNames = null;
      deadlockWaits = null;
    }

    private void end() {
      if (current != null) {
        current.build(stacks, threads);
      }
      current = null;
    }

    ThreadDump dump() {
      end();
      endDeadlock();
      // the format names the carrier of each mounted virtual thread and prints lock lines
      DumpFacts facts = new DumpFacts(true, states, true, true, owners, mounted);
      return new ThreadDump(
          DumpFormat.THREAD_PRINT,
          null,
          pid,
          version,
          facts,
          threads,
          List.of(),
          deadlocks,
          true,
          List.of());
    }
  }

  /**
   * {@code <0x00000000f0017018>} and {@code java.lang.Object}; an id that is no address is null.
   */
  private static ObjectRef address(String id, String className) {
    return new ObjectRef(className, id.startsWith("0x") ? id : null, ObjectRef.IdKind.ADDRESS);
  }

  /** The frames and locks of one stack: a carrier's own, or its mounted virtual thread's. */
  private static final class Side {
    final List<String> frames = new ArrayList<>();
    final List<HeldMonitor> monitors = new ArrayList<>();
    Blocker blocker;

    void monitor(ObjectRef lock) {
      monitors.add(new HeldMonitor(Math.max(0, frames.size() - 1), lock));
    }

    void blocker(Blocker b) {
      // the top frame's wait is the thread's; a lower "waiting on" is a wait it already left
      if (blocker == null) {
        blocker = b;
      }
    }
  }

  private static final class Builder {
    final long tid;
    final String name;
    final String rest;
    String state;
    long carrying = -1;
    final Side own = new Side();
    // what is said of the carried virtual thread when its frames are not printed (JDK 21)
    final Side carried = new Side();
    Side mounted;
    List<ObjectRef> ownable;

    Builder(long tid, String name, String rest) {
      this.tid = tid;
      this.name = name;
      this.rest = rest;
    }

    void build(InternedStacks stacks, List<DumpedThread> threads) {
      threads.add(
          new DumpedThread(
              tid,
              name,
              ThreadKind.PLATFORM,
              state,
              -1,
              carrying,
              stacks.of(own.frames),
              own.blocker,
              own.monitors,
              ownable == null ? List.of() : ownable,
              null,
              nanos(CPU.matcher(rest), 1_000_000),
              nanos(ELAPSED.matcher(rest), 1_000_000_000),
              null));
      if (carrying >= 0) {
        Side v = mounted != null ? mounted : carried;
        RecordedStack stack = mounted != null ? stacks.of(mounted.frames) : null;
        threads.add(
            new DumpedThread(
                carrying,
                "",
                ThreadKind.VIRTUAL,
                null,
                tid,
                -1,
                stack,
                v.blocker,
                v.monitors,
                List.of(),
                null,
                -1,
                -1,
                null));
      }
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
}
