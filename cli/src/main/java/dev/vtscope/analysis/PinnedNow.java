package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.CarrierHolding;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * A virtual thread that holds its carrier now, blocked while pinned, with who holds the carrier:
 * what a thread dump shows and no JFR event does while the pin lasts. Which threads those are is
 * {@link CarrierHolding}'s rule.
 *
 * @param tid the virtual thread's id
 * @param name its name (often empty)
 * @param carrier its carrier's thread id, or -1 when the dump does not say
 * @param attribution who holds the carrier, by vtscope's rules for a pinned stack
 */
public record PinnedNow(long tid, String name, long carrier, Attribution attribution) {

  /**
   * The virtual threads of the last dump of {@code series} (oldest first) that hold their carrier
   * now, by {@link CarrierHolding#heldNow}, each attributed by {@code attributor}, whose class
   * files also tell where a thread waits to enter a monitor when the dumps do not.
   *
   * @param monitorsHoldCarrier whether waiting to enter a monitor pins on a JDK feature release
   */
  public static List<PinnedNow> find(
      List<ThreadDump> series, Attributor attributor, IntPredicate monitorsHoldCarrier) {
    List<PinnedNow> found = new ArrayList<>();
    for (DumpedThread t : CarrierHolding.heldNow(series, attributor, monitorsHoldCarrier)) {
      // a dump of JDK 21 may print none of a carried thread's frames
      RecordedStack stack = t.stack() == null ? new RecordedStack(List.of(), false) : t.stack();
      found.add(
          new PinnedNow(
              t.tid(),
              t.name(),
              t.carrier(),
              t.blocker() instanceof Blocker.ClassInit init
                  ? attributor.classInitWait(stack, init.className())
                  : attributor.pinned(stack, null)));
    }
    return found;
  }
}
