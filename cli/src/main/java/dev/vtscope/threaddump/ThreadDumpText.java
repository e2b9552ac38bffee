package dev.vtscope.threaddump;

import dev.vtscope.recording.RecordedStack;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plain text of {@code Thread.dump_to_file} (its default format): the same threads as the JSON,
 * without their containers, read line by line.
 *
 * <p>What each JDK writes, as read from real dumps: a header of three lines (pid, the instant, the
 * runtime version) and an empty line, then a block per thread ended by an empty line. JDK 21:
 * {@code #13 "name" virtual} (the {@code virtual} only for a virtual thread) and frames indented
 * six spaces. JDK 25: {@code #17 "name" virtual BLOCKED 2026-11-27T11:15:37.042Z}, frames as {@code
 * at …}, and after a frame the monitors it locked ({@code - locked <java.lang.Object@3a2f26d7>},
 * {@code - lock is eliminated}) and, after the top frame, what the thread waits for ({@code -
 * parking to wait for <…>}, {@code - waiting to lock <…>}, {@code - waiting on <…>}). A name is
 * written raw, quotes and control characters as they are: it ends at the line's last quote. The
 * text survives names the JSON writer fails on.
 */
public final class ThreadDumpText {

  private static final Pattern HEADER = Pattern.compile("^#(\\d{1,18}) \"(.*)\"(.*)$");
  private static final Pattern LOCK =
      Pattern.compile("^- (locked|parking to wait for|waiting to lock|waiting on) <(.*)>$");
  private static final Set<String> STATES =
      Set.of("NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED");

  private ThreadDumpText() {}

  /** Reads every thread. */
  public static ThreadDump read(Reader in) throws IOException {
    return read(in, t -> true);
  }

  /** Reads the threads {@code keep} accepts. */
  public static ThreadDump read(Reader in, Predicate<DumpedThread> keep) throws IOException {
    BufferedReader lines = in instanceof BufferedReader b ? b : new BufferedReader(in);
    long pid = -1;
    Instant takenAt = null;
    String version = null;
    // the header: pid, instant, version, until the first empty line
    List<String> header = new ArrayList<>();
    String line;
    while ((line = lines.readLine()) != null && !line.isBlank()) {
      header.add(line.strip());
    }
    if (!header.isEmpty()) {
      pid = parseLong(header.get(0));
    }
    if (header.size() > 1) {
      try {
        takenAt = Instant.parse(header.get(1));
      } catch (DateTimeParseException e) {
        takenAt = null;
      }
    }
    if (header.size() > 2) {
      version = header.get(2);
    }
    InternedStacks stacks = new InternedStacks(Frames::ofStackTraceElement);
    List<DumpedThread> threads = new ArrayList<>();
    boolean states = false;
    boolean virtualMarked = false;
    Block block = null;
    while ((line = lines.readLine()) != null) {
      Matcher h = HEADER.matcher(line);
      if (h.matches()) {
        if (block != null) {
          add(threads, block.build(stacks), keep);
        }
        block = new Block(Long.parseLong(h.group(1)), h.group(2), h.group(3));
        states |= block.state != null;
        virtualMarked = true;
        continue;
      }
      if (block == null || line.isBlank()) {
        continue;
      }
      String t = line.strip();
      Matcher lock = LOCK.matcher(t);
      if (t.equals("- lock is eliminated")) {
        block.monitor(null);
      } else if (lock.matches()) {
        ObjectRef ref = ObjectRef.identity(lock.group(2));
        switch (lock.group(1)) {
          case "locked" -> block.monitor(ref);
          case "parking to wait for" -> block.blocker(new Blocker.Parked(ref, -1));
          case "waiting to lock" -> block.blocker(new Blocker.MonitorEnter(ref));
          default -> block.blocker(new Blocker.MonitorWait(ref));
        }
      } else {
        // JDK 25 writes "at frame", JDK 21 the frame alone
        block.frames.add(t.startsWith("at ") ? t.substring(3) : t);
      }
    }
    if (block != null) {
      add(threads, block.build(stacks), keep);
    }
    DumpFacts facts = new DumpFacts(virtualMarked, states, false, states, false, false);
    return new ThreadDump(
        DumpFormat.PLAIN_TEXT,
        takenAt,
        pid,
        version,
        facts,
        threads,
        List.of(),
        List.of(),
        true,
        List.of());
  }

  private static void add(
      List<DumpedThread> threads, DumpedThread t, Predicate<DumpedThread> keep) {
    if (keep.test(t)) {
      threads.add(t);
    }
  }

  private static long parseLong(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** One thread's block while it is read. */
  private static final class Block {
    final long tid;
    final String name;
    final boolean virtual;
    final String state;
    final Instant sampledAt;
    final List<String> frames = new ArrayList<>();
    final List<HeldMonitor> monitors = new ArrayList<>();
    Blocker blocker;

    /**
     * @param rest what follows the name: {@code [ virtual][ STATE INSTANT]}
     */
    Block(long tid, String name, String rest) {
      this.tid = tid;
      this.name = name;
      boolean v = false;
      String s = null;
      Instant at = null;
      for (String word : rest.strip().split(" ")) {
        if (word.equals("virtual")) {
          v = true;
        } else if (STATES.contains(word)) {
          s = word;
        } else if (!word.isEmpty()) {
          try {
            at = Instant.parse(word);
          } catch (DateTimeParseException e) {
            // a word no JDK writes: left out
          }
        }
      }
      this.virtual = v;
      this.state = s;
      this.sampledAt = at;
    }

    void monitor(ObjectRef lock) {
      monitors.add(new HeldMonitor(Math.max(0, frames.size() - 1), lock));
    }

    void blocker(Blocker b) {
      if (blocker == null
          || b instanceof Blocker.MonitorEnter
          || b instanceof Blocker.MonitorWait) {
        blocker = b;
      }
    }

    DumpedThread build(InternedStacks stacks) {
      // every JDK's text marks the virtual threads, so the others are platform threads
      ThreadKind kind = virtual ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM;
      RecordedStack stack = stacks.of(frames);
      return new DumpedThread(
          tid, name, kind, state, -1, -1, stack, blocker, monitors, List.of(), null, -1, -1,
          sampledAt);
    }
  }
}
