package dev.vtscope.advice;

import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.WaitSeries;
import java.util.List;

/**
 * What the thread dumps of a running JVM show beside its recording ({@code record --pid}, {@code
 * watch --pid}): what no event shows yet, since JFR writes a pinned event when the pin ends.
 *
 * @param pinned the virtual threads that hold their carrier now, or null when not known
 * @param unknown why {@code pinned} is not known (a dump failed, still runs, or does not print what
 *     a mounted virtual thread runs), or null when it is or no dump was asked for
 * @param deadlocks the deadlocks and starvations of the dumps
 * @param waits what the threads of the dumps wait for, or null when none was read
 */
public record DumpsNow(
    List<PinnedNow> pinned, Message unknown, List<Deadlock> deadlocks, WaitSeries waits) {

  public DumpsNow {
    pinned = pinned == null ? null : List.copyOf(pinned);
    deadlocks = List.copyOf(deadlocks);
  }

  /** No dump was read, for {@code why}. */
  public static DumpsNow unknown(Message why) {
    return new DumpsNow(null, why, List.of(), null);
  }
}
