package dev.vtscope.waits;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Which virtual threads hold their carrier now while blocked (pinned): what a thread dump shows and
 * no JFR event does while the pin lasts (a pinned event is written when the pin ends).
 *
 * <p>How a dump shows one, as read from real dumps: on JDK 25+ the JSON dump gives a virtual
 * thread's carrier while it is mounted and its state, so a mounted virtual thread that is {@code
 * WAITING}, {@code TIMED_WAITING} or {@code BLOCKED} is pinned (an unpinned one would have
 * unmounted). On JDK 21 the dump says neither: a virtual thread parked while pinned has {@code
 * VirtualThread.parkOnCarrierThread} on its stack (a sleep, lock, or I/O wait that could not
 * unmount), and one in {@code Object.wait()} has {@code Object.wait0} on top (it pins on JDK
 * 21–23). A virtual thread blocked entering a monitor on JDK 21 looks like one that runs in a
 * single dump, and is not counted; a series of dumps shows it ({@link MonitorEntries}). A mounted
 * virtual thread waiting for a class's initialisation holds its carrier on every JDK.
 */
public final class CarrierHolding {

  private CarrierHolding() {}

  /**
   * The virtual threads of the last dump of {@code series} (oldest first) that hold their carrier
   * now, in the dump's order: blocked while pinned, waiting for a class's initialisation while
   * mounted, and, where waiting to enter a monitor pins, waiting to enter one as the series shows
   * (two dumps or more: one shows only where a thread may wait).
   *
   * @param classes reads the class files of the dumps' frames; null to infer no monitor entry
   * @param monitorsHoldCarrier whether waiting to enter a monitor pins on a JDK feature release
   */
  public static List<DumpedThread> heldNow(
      List<ThreadDump> series, Attributor classes, IntPredicate monitorsHoldCarrier) {
    ThreadDump last = series.get(series.size() - 1);
    Map<Long, WaitEdge.Resource.MonitorEntry> entering =
        enteringPinned(series, classes, monitorsHoldCarrier).get(series.size() - 1);
    Set<Long> mounted = mounted(last);
    List<DumpedThread> held = new ArrayList<>();
    for (DumpedThread t : last.threads()) {
      if (holdsCarrier(t, mounted, entering.containsKey(t.tid()))) {
        held.add(t);
      }
    }
    return held;
  }

  /**
   * For each dump of {@code series} (oldest first), its virtual threads that wait to enter a
   * monitor where that pins, as the series shows ({@link MonitorEntries}), by thread id: none of a
   * single dump, which shows only where a thread may wait, nor without class files.
   *
   * @param classes reads the class files of the dumps' frames; null to infer no monitor entry
   * @param monitorsHoldCarrier whether waiting to enter a monitor pins on a JDK feature release
   */
  static List<Map<Long, WaitEdge.Resource.MonitorEntry>> enteringPinned(
      List<ThreadDump> series, Attributor classes, IntPredicate monitorsHoldCarrier) {
    if (series.size() > 1
        && classes != null
        && monitorsHoldCarrier.test(series.get(series.size() - 1).feature())) {
      return MonitorEntries.of(series, classes);
    }
    return java.util.Collections.nCopies(series.size(), Map.of());
  }

  /**
   * The virtual threads of a single dump that stand at a line that enters a monitor where that pins
   * (before JDK 24), with no wait stated: each waits there, holding its carrier, or runs there, and
   * only a second dump tells which ({@link #heldNow} of the two). Empty for a series.
   *
   * @param classes reads the class files of the dump's frames; null to infer nothing
   * @param monitorsHoldCarrier whether waiting to enter a monitor pins on a JDK feature release
   */
  public static List<DumpedThread> mayEnterMonitor(
      List<ThreadDump> series, Attributor classes, IntPredicate monitorsHoldCarrier) {
    ThreadDump only = series.get(0);
    if (series.size() != 1 || classes == null || !monitorsHoldCarrier.test(only.feature())) {
      return List.of();
    }
    Map<Long, WaitEdge.Resource.MonitorEntry> may = MonitorEntries.of(series, classes).get(0);
    List<DumpedThread> standing = new ArrayList<>();
    for (DumpedThread t : only.threads()) {
      if (may.containsKey(t.tid())) {
        standing.add(t);
      }
    }
    return standing;
  }

  /** The ids of the virtual threads a dump shows mounted: by their carrier, or their carrier's. */
  static Set<Long> mounted(ThreadDump dump) {
    Set<Long> mounted = new HashSet<>();
    for (DumpedThread t : dump.threads()) {
      if (t.isCarrier()) {
        mounted.add(t.carrying());
      }
      if (t.carrier() >= 0) {
        mounted.add(t.tid());
      }
    }
    return mounted;
  }

  /**
   * Whether {@code t} holds its carrier while blocked: pinned, or waiting for a class's
   * initialisation while mounted, or waiting to enter a monitor where that pins.
   *
   * @param mounted the ids of the virtual threads mounted in its dump ({@link #mounted})
   * @param entersMonitorPinned whether a series shows it waiting to enter a monitor, on a JDK where
   *     that pins
   */
  static boolean holdsCarrier(DumpedThread t, Set<Long> mounted, boolean entersMonitorPinned) {
    return isBlockedWhilePinned(t)
        || entersMonitorPinned
        || t.blocker() instanceof Blocker.ClassInit
            && (t.isVirtual() || t.kind() == ThreadKind.VIRTUAL)
            && mounted.contains(t.tid());
  }

  /** Whether {@code t} is a virtual thread that holds its carrier while blocked. */
  public static boolean isBlockedWhilePinned(DumpedThread t) {
    if (!t.isVirtual()) {
      return false;
    }
    if (t.state() != null) {
      return t.carrier() >= 0 && isBlockedState(t.state());
    }
    RecordedStack stack = t.stack();
    if (stack == null || stack.frames().isEmpty()) {
      return false;
    }
    if (inObjectWait(t)) {
      return true;
    }
    return stack.frames().stream()
        .anyMatch(f -> isMethod(f, "VirtualThread", "parkOnCarrierThread"));
  }

  /** Whether {@code t}'s stack shows it in {@code Object.wait()}: the JVM's wait on top. */
  public static boolean inObjectWait(DumpedThread t) {
    RecordedStack stack = t.stack();
    return stack != null
        && !stack.frames().isEmpty()
        && isMethod(stack.frames().get(0), "Object", "wait0");
  }

  /** A carrier that used less than this share of the time between two dumps on the CPU idled. */
  public static final double IDLE_CPU_SHARE = 0.1;

  /**
   * Whether a carrier idled between two dumps {@code between} nanoseconds apart, by the CPU time
   * each gives it ({@code Thread.print}'s {@code cpu=}): less than {@link #IDLE_CPU_SHARE} of the
   * time; false when a dump does not give it.
   */
  public static boolean idle(long cpuBefore, long cpuAfter, long between) {
    return between > 0
        && cpuBefore >= 0
        && cpuAfter >= cpuBefore
        && cpuAfter - cpuBefore < between * IDLE_CPU_SHARE;
  }

  private static boolean isBlockedState(String state) {
    return switch (state) {
      case "WAITING", "TIMED_WAITING", "BLOCKED" -> true;
      default -> false;
    };
  }

  private static boolean isMethod(Frame f, String simpleClass, String method) {
    return f.className().equals("java.lang." + simpleClass) && f.method().equals(method);
  }
}
