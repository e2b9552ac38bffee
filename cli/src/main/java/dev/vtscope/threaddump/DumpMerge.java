package dev.vtscope.threaddump;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON or plain-text dump completed by the {@code Thread.print} taken with it, matched by thread
 * id (the same Java thread id in every format): the carrier of each carried virtual thread (JDK
 * 21's JSON names none), the mounted virtual threads' frames with the JDK's hidden frames, which
 * the JSON leaves out (the upcall stub of a foreign-function call, for one), the class
 * initialisation a thread waits for (only {@code Thread.print} says it), the platform threads' CPU
 * time, states, locks and owned synchronizers, and the JVM's own deadlock sections.
 */
public final class DumpMerge {

  private DumpMerge() {}

  /**
   * {@code full} completed by {@code printed}; the threads are {@code full}'s: a thread {@code
   * Thread.print} names that {@code full} does not list ended, or was left out, in between.
   */
  public static ThreadDump of(ThreadDump full, ThreadDump printed) {
    Map<Long, DumpedThread> byTid = new HashMap<>();
    for (DumpedThread t : printed.threads()) {
      byTid.put(t.tid(), t);
    }
    List<DumpedThread> threads = new ArrayList<>(full.threads().size());
    for (DumpedThread t : full.threads()) {
      DumpedThread p = byTid.get(t.tid());
      threads.add(p == null ? unprinted(t) : completed(t, p));
    }
    return new ThreadDump(
        full.format(),
        full.takenAt(),
        full.pid() >= 0 ? full.pid() : printed.pid(),
        full.runtimeVersion() != null ? full.runtimeVersion() : printed.runtimeVersion(),
        full.facts().or(printed.facts()),
        threads,
        full.containers(),
        printed.vmDeadlocks(),
        full.complete(),
        notes(full, printed));
  }

  private static List<String> notes(ThreadDump full, ThreadDump printed) {
    List<String> notes = new ArrayList<>(full.notes());
    notes.addAll(printed.notes());
    return notes;
  }

  /**
   * A thread {@code Thread.print} does not list, which lists every platform thread: a virtual
   * thread, though JDK 21's JSON does not say so of one with no frames yet (not started, or queued
   * for a carrier). One that started later than the printing, or ended, is rare at such a moment.
   */
  private static DumpedThread unprinted(DumpedThread t) {
    if (t.kind() != ThreadKind.UNKNOWN || t.stack() == null || !t.frames().isEmpty()) {
      return t;
    }
    return t.withKind(ThreadKind.VIRTUAL);
  }

  private static DumpedThread completed(DumpedThread t, DumpedThread p) {
    boolean printedStack = p.stack() != null && !p.stack().frames().isEmpty();
    // a virtual thread's printed frames are its mounted ones; a platform thread's, taken a moment
    // apart, are no better than the fuller dump's
    boolean virtualFrames = p.kind() == ThreadKind.VIRTUAL && printedStack;
    return new DumpedThread(
        t.tid(),
        t.name().isEmpty() ? p.name() : t.name(),
        t.kind() == ThreadKind.UNKNOWN ? p.kind() : t.kind(),
        t.state() != null ? t.state() : p.state(),
        t.carrier() >= 0 ? t.carrier() : p.carrier(),
        t.carrying() >= 0 ? t.carrying() : p.carrying(),
        virtualFrames ? p.stack() : t.stack(),
        t.blocker() != null && !(p.blocker() instanceof Blocker.ClassInit)
            ? t.blocker()
            : p.blocker() != null ? p.blocker() : t.blocker(),
        t.monitors().isEmpty() ? p.monitors() : t.monitors(),
        t.ownableSynchronizers().isEmpty() ? p.ownableSynchronizers() : t.ownableSynchronizers(),
        t.container(),
        t.cpuNanos() >= 0 ? t.cpuNanos() : p.cpuNanos(),
        t.elapsedNanos() >= 0 ? t.elapsedNanos() : p.elapsedNanos(),
        t.sampledAt());
  }
}
