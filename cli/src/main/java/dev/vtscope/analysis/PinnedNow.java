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
 * @param compensated whether the scheduler starts a carrier in its place while it waits ({@code
 *     Object.wait()} on JDK 21–23), so that it does not hold one of the parallelism's carriers
 */
public record PinnedNow(
    long tid, String name, long carrier, Attribution attribution, boolean compensated) {

  /** One that holds one of the parallelism's carriers. */
  public PinnedNow(long tid, String name, long carrier, Attribution attribution) {
    this(tid, name, carrier, attribution, false);
  }

  /**
   * How many carriers {@code threads}, the pinned threads of one dump, hold at once. A dump is
   * taken thread by thread, so it can see a thread pinned on a carrier and, a moment later, the
   * next thread pinned on the same one: threads whose carrier the dump names count once per
   * carrier, and the others, but for those the scheduler compensates for, count at most the
   * parallelism, which is how many carriers the scheduler keeps running.
   *
   * @param parallelism the scheduler's parallelism, or 0 or less when unknown
   */
  public static int carriersHeld(List<PinnedNow> threads, int parallelism) {
    java.util.Set<Long> carriers = new java.util.HashSet<>();
    int unnamed = 0;
    int compensated = 0;
    for (PinnedNow p : threads) {
      if (p.compensated()) {
        compensated++;
      } else if (p.carrier() >= 0) {
        carriers.add(p.carrier());
      } else {
        unnamed++;
      }
    }
    int held = carriers.size() + unnamed;
    return (parallelism > 0 ? Math.min(held, parallelism) : held) + compensated;
  }

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
    ThreadDump last = series.get(series.size() - 1);
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
                  : attributor.pinned(stack, null),
              // Object.wait() pins where monitors do, and the scheduler starts a carrier for it
              monitorsHoldCarrier.test(last.feature()) && CarrierHolding.inObjectWait(t)));
    }
    return found;
  }
}
