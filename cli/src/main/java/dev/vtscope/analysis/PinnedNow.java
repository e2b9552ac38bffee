package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.waits.CarrierHolding;
import java.util.ArrayList;
import java.util.List;

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

  /** The threads of a dump that are virtual threads blocked while pinned. */
  public static List<DumpedThread> candidates(List<DumpedThread> threads) {
    return CarrierHolding.blockedWhilePinned(threads);
  }

  /** The pinned threads of {@code threads}, each attributed by {@code attributor}. */
  public static List<PinnedNow> find(List<DumpedThread> threads, Attributor attributor) {
    List<PinnedNow> found = new ArrayList<>();
    for (DumpedThread t : candidates(threads)) {
      found.add(new PinnedNow(t.tid(), t.name(), t.carrier(), attributor.pinned(t.stack(), null)));
    }
    return found;
  }
}
