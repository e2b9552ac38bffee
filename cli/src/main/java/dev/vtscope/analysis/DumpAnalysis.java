package dev.vtscope.analysis;

import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.DumpWaits;
import dev.vtscope.waits.WaitSeries;
import java.util.List;

/**
 * What {@code vtscope analyze} makes of thread dumps: what their threads wait for and, for several
 * dumps of one JVM, what persisted between them.
 *
 * @param names each dump's name (its file), in time order, as {@link WaitSeries#dumps()}
 * @param series the dumps' waits; a series of one for a single dump
 * @param pinnedNow the virtual threads of the last dump that hold their carrier while blocked, each
 *     with who holds it
 * @param deadlocks the deadlocks and starvation of the last dump, each stuck for as long as the
 *     series shows it
 */
public record DumpAnalysis(
    List<String> names, WaitSeries series, List<PinnedNow> pinnedNow, List<Deadlock> deadlocks) {

  public DumpAnalysis {
    names = List.copyOf(names);
    pinnedNow = List.copyOf(pinnedNow);
    deadlocks = List.copyOf(deadlocks);
  }

  /** The last dump's waits: the one a single-dump report shows. */
  public DumpWaits last() {
    return series.dumps().get(series.dumps().size() - 1);
  }

  /** Whether several dumps were read. */
  public boolean isSeries() {
    return series.dumps().size() > 1;
  }
}
