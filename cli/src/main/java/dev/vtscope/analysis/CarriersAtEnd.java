package dev.vtscope.analysis;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.recording.ThreadDumpEvent;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadPrint;
import dev.vtscope.waits.CarrierHolding;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.Deadlocks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the carriers held when a recording ended, from its last thread dump ({@code jdk.ThreadDump},
 * which JFR's default settings and vtscope's write when each chunk begins and ends, so also when
 * {@code jcmd JFR.dump} copies the recording of a JVM that has stopped answering). A pin that has
 * not ended has no pinned event; its carrier is in the dump.
 *
 * <p>What a dump can tell, by JDK: JDK 25 prints the frames of the virtual thread each carrier
 * carries, so one blocked while mounted (a wait that could not unmount) is pinned, and is
 * attributed as a pinned stack is. JDK 21 prints only that a carrier carries virtual thread #N: one
 * that carried the same virtual thread in the dump before, and used almost no CPU in between, held
 * it blocked for at least that long.
 *
 * @param atNanos when the last dump was taken, nanoseconds since the epoch
 * @param carriers the scheduler's carriers in the dump: the threads of the pools whose workers
 *     carry virtual threads (0 when none carries one)
 * @param carrying the carriers that carried a virtual thread
 * @param stacksPrinted whether the dump prints the carried virtual threads' frames (JDK 25)
 * @param pinned the carried virtual threads blocked while mounted, from their frames (JDK 25)
 * @param unchanged the carriers that carried the same virtual thread in the dump before, used under
 *     a tenth of the time in between on the CPU, and whose virtual thread JFR did not sample
 *     running in between: blocked, held since then at least
 * @param running the carriers that carried the same virtual thread in the dump before and ran it:
 *     sampled on the CPU in between, or a tenth of the time or more on the CPU
 * @param beforeNanos when the dump before was taken, or -1 when there was none
 * @param undetermined the carriers that carried a virtual thread the dumps tell nothing more of: no
 *     frames printed (JDK 21), and not the same virtual thread in the dump before, so it may have
 *     been running
 * @param input which of the analysis's inputs the dumps are of, by index
 * @param deadlocks the deadlocks and carrier starvations of the last dump, stuck since the dump
 *     before when it shows them too; empty when a report read back does not say
 */
public record CarriersAtEnd(
    long atNanos,
    int carriers,
    int carrying,
    boolean stacksPrinted,
    List<PinnedNow> pinned,
    int unchanged,
    int running,
    long beforeNanos,
    int undetermined,
    int input,
    List<Deadlock> deadlocks) {

  public CarriersAtEnd {
    pinned = List.copyOf(pinned);
    deadlocks = List.copyOf(deadlocks);
  }

  /** The carriers at a recording's end, as a report read back says them: without deadlocks. */
  public CarriersAtEnd(
      long atNanos,
      int carriers,
      int carrying,
      boolean stacksPrinted,
      List<PinnedNow> pinned,
      int unchanged,
      int running,
      long beforeNanos,
      int undetermined,
      int input) {
    this(
        atNanos,
        carriers,
        carrying,
        stacksPrinted,
        pinned,
        unchanged,
        running,
        beforeNanos,
        undetermined,
        input,
        List.of());
  }

  /** The virtual threads that held their carriers blocked when the recording ended. */
  public int held() {
    return stacksPrinted ? pinned.size() : unchanged;
  }

  /**
   * Of two recordings' ends, the one whose carriers were held most (the later one of equals): what
   * an analysis of several recordings shows. Either may be null.
   */
  public static CarriersAtEnd worse(CarriersAtEnd a, CarriersAtEnd b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    if (a.held() != b.held()) {
      return a.held() > b.held() ? a : b;
    }
    return b.atNanos() > a.atNanos() ? b : a;
  }

  /**
   * The carriers at the end of a recording whose last dumps are these.
   *
   * @param last the last dump
   * @param before the dump before it, or null
   * @param samples the virtual threads sampled last, which ran
   * @param attributor names who holds a pinned stack
   * @param input the index of the input the dumps are of
   */
  static CarriersAtEnd of(
      ThreadDumpEvent last,
      ThreadDumpEvent before,
      RecentSamples samples,
      Attributor attributor,
      int input) {
    ThreadDump lastDump = dumpOf(last);
    List<DumpedThread> threads = lastDump.threads();
    Map<Long, DumpedThread> carried = new HashMap<>();
    Set<String> pools = new HashSet<>();
    for (DumpedThread t : threads) {
      if (t.isCarrier()) {
        pools.add(pool(t.name()));
      } else if (t.isVirtual() && t.carrier() >= 0) {
        carried.put(t.tid(), t);
      }
    }
    int carriers = 0;
    int carrying = 0;
    boolean stacksPrinted = false;
    List<DumpedThread> mounted = new ArrayList<>();
    for (DumpedThread t : threads) {
      if (t.isVirtual() || !pools.contains(pool(t.name()))) {
        continue;
      }
      carriers++;
      if (t.isCarrier()) {
        carrying++;
        DumpedThread v = carried.get(t.carrying());
        if (v != null && v.stack() != null) {
          stacksPrinted = true;
          mounted.add(v);
        }
      }
    }
    // one dump: where a thread waits to enter a monitor is not told by one
    List<PinnedNow> pinned =
        PinnedNow.find(
            List.of(lastDump.with(lastDump.pid(), mounted)), attributor, feature -> false);
    int unchanged = 0;
    int stayed = 0;
    if (before != null && carrying > 0) {
      Map<Long, DumpedThread> earlier = new HashMap<>();
      for (DumpedThread t : dumpOf(before).threads()) {
        if (!t.isVirtual()) {
          earlier.put(t.tid(), t);
        }
      }
      long between = last.startNanos() - before.startNanos();
      for (DumpedThread t : threads) {
        DumpedThread e = t.isVirtual() ? null : earlier.get(t.tid());
        if (t.isCarrier() && e != null && e.carrying() == t.carrying()) {
          stayed++;
          // a host that gives the JVM little CPU keeps even a running carrier's share low: a
          // sample of its virtual thread in between says it ran
          if (CarrierHolding.idle(e.cpuNanos(), t.cpuNanos(), between)
              && !samples.sampledAfter(t.carrying(), before.startNanos())) {
            unchanged++;
          }
        }
      }
    }
    return new CarriersAtEnd(
        last.startNanos(),
        carriers,
        carrying,
        stacksPrinted,
        pinned,
        unchanged,
        stayed - unchanged,
        before == null ? -1 : before.startNanos(),
        stacksPrinted ? 0 : carrying - stayed,
        input,
        Deadlocks.find(before == null ? List.of(lastDump) : List.of(dumpOf(before), lastDump)));
  }

  /** A recording's thread dump, read, taken at its event's start. */
  private static ThreadDump dumpOf(ThreadDumpEvent e) {
    return ThreadPrint.parse(e.text()).withTakenAt(Instant.ofEpochSecond(0, e.startNanos()));
  }

  /** The same, of the input at {@code input}: an analysis of several reports renumbers them. */
  public CarriersAtEnd withInput(int input) {
    return new CarriersAtEnd(
        atNanos,
        carriers,
        carrying,
        stacksPrinted,
        pinned,
        unchanged,
        running,
        beforeNanos,
        undetermined,
        input,
        deadlocks);
  }

  /** A worker's pool: its name without the worker's number ({@code ForkJoinPool-1-worker-}). */
  private static String pool(String name) {
    int end = name.length();
    while (end > 0 && Character.isDigit(name.charAt(end - 1))) {
      end--;
    }
    return name.substring(0, end);
  }
}
