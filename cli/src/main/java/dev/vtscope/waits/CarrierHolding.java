package dev.vtscope.waits;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.DumpedThread;
import java.util.ArrayList;
import java.util.List;

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
 * single dump, and is not counted.
 */
public final class CarrierHolding {

  private CarrierHolding() {}

  /** The threads of a dump that are virtual threads blocked while pinned, in the dump's order. */
  public static List<DumpedThread> blockedWhilePinned(List<DumpedThread> threads) {
    List<DumpedThread> pinned = new ArrayList<>();
    for (DumpedThread t : threads) {
      if (isBlockedWhilePinned(t)) {
        pinned.add(t);
      }
    }
    return pinned;
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
    if (isMethod(stack.frames().get(0), "Object", "wait0")) {
      return true;
    }
    return stack.frames().stream()
        .anyMatch(f -> isMethod(f, "VirtualThread", "parkOnCarrierThread"));
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
