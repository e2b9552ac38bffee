package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.DumpedThread;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A virtual thread that holds its carrier now, blocked while pinned: what a thread dump shows and
 * no JFR event does while the pin lasts (a pinned event is written when the pin ends).
 *
 * <p>How a thread dump shows one, as read from real dumps: on JDK 25+ the JSON dump gives a virtual
 * thread's carrier while it is mounted and its state, so a mounted virtual thread that is {@code
 * WAITING}, {@code TIMED_WAITING} or {@code BLOCKED} is pinned (an unpinned one would have
 * unmounted). On JDK 21 the dump says neither: a virtual thread (its stack ends in {@code
 * VirtualThread.run}) parked while pinned has {@code VirtualThread.parkOnCarrierThread} on its
 * stack (a sleep, lock, or I/O wait that could not unmount), and one in {@code Object.wait()} has
 * {@code Object.wait0} on top (it pins on JDK 21–23). A virtual thread blocked entering a monitor
 * on JDK 21 looks like one that runs, and is not counted.
 *
 * @param tid the virtual thread's id
 * @param name its name (often empty)
 * @param carrier its carrier's thread id, or -1 when the dump does not say
 * @param attribution who holds the carrier, by vtscope's rules for a pinned stack
 */
public record PinnedNow(long tid, String name, long carrier, Attribution attribution) {

  private static final Set<String> BLOCKED = Set.of("WAITING", "TIMED_WAITING", "BLOCKED");

  /** The threads of a dump that are virtual threads blocked while pinned. */
  public static List<DumpedThread> candidates(List<DumpedThread> threads) {
    List<DumpedThread> pinned = new ArrayList<>();
    for (DumpedThread t : threads) {
      if (t.isVirtual() && blockedWhileMounted(t)) {
        pinned.add(t);
      }
    }
    return pinned;
  }

  /** The pinned threads of {@code threads}, each attributed by {@code attributor}. */
  public static List<PinnedNow> find(List<DumpedThread> threads, Attributor attributor) {
    List<PinnedNow> found = new ArrayList<>();
    for (DumpedThread t : candidates(threads)) {
      found.add(new PinnedNow(t.tid(), t.name(), t.carrier(), attributor.pinned(t.stack(), null)));
    }
    return found;
  }

  private static boolean blockedWhileMounted(DumpedThread t) {
    if (t.state() != null) {
      return t.carrier() >= 0 && BLOCKED.contains(t.state());
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

  private static boolean isMethod(Frame f, String simpleClass, String method) {
    return f.className().equals("java.lang." + simpleClass) && f.method().equals(method);
  }
}
