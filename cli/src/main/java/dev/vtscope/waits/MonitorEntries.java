package dev.vtscope.waits;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which virtual threads of a series of dumps wait to enter a monitor, where the dumps do not say it
 * (JDK 21–23's JSON, a carried virtual thread's frames): one dump cannot tell such a thread from
 * one that runs there, a series can. A virtual thread waits to enter a monitor from the earliest
 * dump on from which, in every dump:
 *
 * <ul>
 *   <li>its stack is the same, and the dump states no other wait of it;
 *   <li>its innermost frame is on a line that enters a monitor, as the class file tells ({@link
 *       Attributor#monitorEntry});
 *   <li>its carrier, where the dumps give one with its CPU time ({@code Thread.print}), is the same
 *       and used almost no CPU in between ({@link CarrierHolding#idle}).
 * </ul>
 */
final class MonitorEntries {

  private MonitorEntries() {}

  /**
   * For each dump of {@code series} (oldest first), the threads waiting to enter a monitor in it,
   * by thread id. Of a single dump, the threads that may be: at a line that enters a monitor, which
   * only a second dump tells from running there.
   */
  static List<Map<Long, WaitEdge.Resource.MonitorEntry>> of(
      List<ThreadDump> series, Attributor classes) {
    int n = series.size();
    List<Map<Long, WaitEdge.Resource.MonitorEntry>> entering = new ArrayList<>(n);
    List<Map<Long, DumpedThread>> byTid = new ArrayList<>(n);
    List<Map<Long, DumpedThread>> carriers = new ArrayList<>(n);
    for (ThreadDump d : series) {
      entering.add(new HashMap<>());
      Map<Long, DumpedThread> threads = new HashMap<>(d.threads().size() * 2);
      Map<Long, DumpedThread> carrying = new HashMap<>();
      for (DumpedThread t : d.threads()) {
        threads.put(t.tid(), t);
        if (t.isCarrier()) {
          carrying.put(t.carrying(), t);
        }
      }
      byTid.add(threads);
      carriers.add(carrying);
    }
    for (DumpedThread t : series.get(n - 1).threads()) {
      if (!unstated(t)) {
        continue;
      }
      int since = n - 1;
      while (since > 0 && stoodStill(series, byTid, carriers, since - 1, since, t)) {
        since--;
      }
      if (n > 1 && since == n - 1) {
        continue;
      }
      Attributor.MonitorEntry at = classes.monitorEntry(t.frames());
      if (at == null) {
        continue;
      }
      WaitEdge.Resource.MonitorEntry entry = new WaitEdge.Resource.MonitorEntry(at);
      for (int i = since; i < n; i++) {
        entering.get(i).put(t.tid(), entry);
      }
    }
    return entering;
  }

  /** A virtual thread with frames of which the dump states no state and no wait. */
  private static boolean unstated(DumpedThread t) {
    return t.isVirtual()
        && t.state() == null
        && t.blocker() == null
        && t.stack() != null
        && !t.frames().isEmpty();
  }

  /**
   * Whether {@code t} of dump {@code later} stood still since dump {@code earlier}: there, with the
   * same stack, and its carrier the same and idle where the dumps say.
   */
  private static boolean stoodStill(
      List<ThreadDump> series,
      List<Map<Long, DumpedThread>> byTid,
      List<Map<Long, DumpedThread>> carriers,
      int earlier,
      int later,
      DumpedThread t) {
    DumpedThread before = byTid.get(earlier).get(t.tid());
    if (before == null || !unstated(before) || !before.stack().equals(t.stack())) {
      return false;
    }
    DumpedThread carrierBefore = carrierOf(before, byTid.get(earlier), carriers.get(earlier));
    DumpedThread carrierAfter = carrierOf(t, byTid.get(later), carriers.get(later));
    if (carrierBefore == null || carrierAfter == null) {
      return true; // the dumps do not say: the stack alone
    }
    if (carrierBefore.tid() != carrierAfter.tid()) {
      return false; // it moved to another carrier: it ran
    }
    ThreadDump from = series.get(earlier);
    ThreadDump to = series.get(later);
    if (from.takenAt() == null || to.takenAt() == null) {
      return true;
    }
    long between = Duration.between(from.takenAt(), to.takenAt()).toNanos();
    return carrierBefore.cpuNanos() < 0
        || carrierAfter.cpuNanos() < 0
        || CarrierHolding.idle(carrierBefore.cpuNanos(), carrierAfter.cpuNanos(), between);
  }

  /**
   * The carrier of a mounted virtual thread, as the dump says it, or null.
   *
   * @param carriers the dump's carriers by the thread each carries
   */
  private static DumpedThread carrierOf(
      DumpedThread virtual, Map<Long, DumpedThread> threads, Map<Long, DumpedThread> carriers) {
    return virtual.carrier() >= 0 ? threads.get(virtual.carrier()) : carriers.get(virtual.tid());
  }
}
