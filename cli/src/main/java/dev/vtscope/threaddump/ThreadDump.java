package dev.vtscope.threaddump;

import java.time.Instant;
import java.util.List;

/**
 * One thread dump of one JVM, read.
 *
 * @param format the format read; for a dump completed by {@link DumpMerge}, the fuller one's
 * @param takenAt when it was taken (the JSON and plain text's header), or null ({@code
 *     Thread.print} prints a local time without its zone)
 * @param pid the JVM's process id, or -1 when not said
 * @param runtimeVersion the JVM's {@code Runtime.version()}, e.g. {@code 25.0.3+9-LTS}, or null
 * @param facts what it can tell
 * @param threads its threads, in the dump's order
 * @param containers the JSON dump's thread containers; empty for the other formats
 * @param vmDeadlocks the deadlocks the JVM found itself ({@code Thread.print}), platform threads'
 * @param complete whether it was read to its end: false for a JSON file cut short (the JDK's writer
 *     failed, a copy was cut), whose threads are those before the cut
 * @param notes what its reading, or the taking of it, says of it: why it is incomplete, which
 *     fallback was taken and why
 */
public record ThreadDump(
    DumpFormat format,
    Instant takenAt,
    long pid,
    String runtimeVersion,
    DumpFacts facts,
    List<DumpedThread> threads,
    List<ThreadContainer> containers,
    List<VmDeadlock> vmDeadlocks,
    boolean complete,
    List<String> notes) {

  public ThreadDump {
    threads = List.copyOf(threads);
    containers = List.copyOf(containers);
    vmDeadlocks = List.copyOf(vmDeadlocks);
    notes = List.copyOf(notes);
  }

  /** The JDK's feature release, from {@link #runtimeVersion}, or 0 when not known. */
  public int feature() {
    if (runtimeVersion == null) {
      return 0;
    }
    try {
      return Runtime.Version.parse(runtimeVersion.strip()).feature();
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  /**
   * Whether the frames of every mounted virtual thread are known: not so when only JDK 21's {@code
   * Thread.print} was read, which names the virtual thread a carrier carries but not what it runs.
   */
  public boolean mountedFramesKnown() {
    for (DumpedThread t : threads) {
      if (t.kind() == ThreadKind.VIRTUAL && t.carrier() >= 0 && t.stack() == null) {
        return false;
      }
    }
    return true;
  }

  /** The thread with this id, or null. */
  public DumpedThread thread(long tid) {
    for (DumpedThread t : threads) {
      if (t.tid() == tid) {
        return t;
      }
    }
    return null;
  }

  /**
   * The same dump, taken at {@code when}: a recording's {@code Thread.print} text names no time,
   * its event does.
   */
  public ThreadDump withTakenAt(java.time.Instant when) {
    return copy(when, pid, threads, notes);
  }

  /** The same dump of the JVM with this pid, with these threads. */
  public ThreadDump with(long jvmPid, List<DumpedThread> others) {
    return copy(takenAt, jvmPid, others, notes);
  }

  /** The same dump with {@code note} added. */
  public ThreadDump withNote(String note) {
    List<String> more = new java.util.ArrayList<>(notes);
    more.add(note);
    return copy(takenAt, pid, threads, more);
  }

  private ThreadDump copy(
      Instant when, long jvmPid, List<DumpedThread> others, List<String> otherNotes) {
    return new ThreadDump(
        format,
        when,
        jvmPid,
        runtimeVersion,
        facts,
        others,
        containers,
        vmDeadlocks,
        complete,
        otherNotes);
  }
}
