package dev.vtscope.analysis;

import dev.vtscope.threaddump.DumpFacts;
import dev.vtscope.threaddump.DumpFormat;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.DumpWaits;
import dev.vtscope.waits.SchedulerLimits;
import dev.vtscope.waits.WaitGroup;
import dev.vtscope.waits.WaitKey;
import dev.vtscope.waits.WaitKind;
import dev.vtscope.waits.WaitSeries;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
 * @param undecidedMonitorEntries of a single dump of JDK 21-23, its virtual threads that stand
 *     where a monitor is entered, each waiting there (pinned) or running, which only a second dump
 *     tells; 0 for a series
 * @param scheduler the scheduler's parallelism and maximum pool size as the JVM said them (a
 *     running JVM's, or those kept beside its dumps), which no dump before JDK 25 says; {@link
 *     SchedulerLimits#UNKNOWN} otherwise
 */
public record DumpAnalysis(
    List<String> names,
    WaitSeries series,
    List<PinnedNow> pinnedNow,
    List<Deadlock> deadlocks,
    int undecidedMonitorEntries,
    SchedulerLimits scheduler) {

  public DumpAnalysis {
    names = List.copyOf(names);
    pinnedNow = List.copyOf(pinnedNow);
    deadlocks = List.copyOf(deadlocks);
  }

  /**
   * The virtual threads of the last dump that hold their carrier while blocked: those the dump
   * shows so, and those the series shows stuck entering a monitor on JDK 21–23, which no dump does.
   * The sum of its groups' ({@link DumpWaits#carriersHeld}), by the rule of {@code pinnedNow}: what
   * every format says.
   */
  public int carriersHeld() {
    return last().carriersHeld();
  }

  /** The last dump's waits: the one a single-dump report shows. */
  public DumpWaits last() {
    return series.dumps().get(series.dumps().size() - 1);
  }

  /** Whether several dumps were read. */
  public boolean isSeries() {
    return series.dumps().size() > 1;
  }

  /**
   * The group of {@code key} in the latest dump that has it: what a trend of the series shows of
   * its threads and stack.
   */
  public WaitGroup latestGroup(WaitKey key) {
    for (int i = series.dumps().size() - 1; i >= 0; i--) {
      WaitGroup g = series.dumps().get(i).group(key);
      if (g != null) {
        return g;
      }
    }
    throw new IllegalArgumentException("no group of " + key);
  }

  /**
   * What the dumps cannot tell, and what their reading says of them, each said once, raw: the
   * renderers escape them.
   */
  public List<String> notes() {
    Set<String> said = new LinkedHashSet<>();
    for (DumpWaits w : series.dumps()) {
      ThreadDump d = w.dump();
      DumpFacts f = d.facts();
      if (!f.statesGiven() && !f.locksGiven() && !d.threads().isEmpty()) {
        said.add(
            "The dump gives no thread states or locks (JDK 21's JSON): a thread entering a monitor"
                + " shows as running there, and no lock is named; a Thread.print -l taken beside"
                + " it, given too, adds the platform threads' locks.");
      }
      if (d.format() != DumpFormat.THREAD_PRINT
          && w.groups().stream()
              .anyMatch(g -> g.key().kind() == WaitKind.RUNNING && g.site() != null)
          && w.groups().stream().noneMatch(g -> g.key().kind() == WaitKind.CLASS_INIT)) {
        said.add(
            "A thread shown running may be waiting for another thread to initialise a class: the"
                + " JSON and plain text show it runnable at the line that uses the class; a"
                + " Thread.print -l taken beside the dump, given too, names the class.");
      }
      if (d.format() == DumpFormat.THREAD_PRINT) {
        said.add(
            "Thread.print lists platform threads and only the virtual threads mounted now; its"
                + " lock addresses are not kept across dumps. Thread.dump_to_file -format=json"
                + " lists every thread.");
      }
      if (!d.mountedFramesKnown()) {
        said.add(
            "JDK 21's Thread.print does not print what a mounted virtual thread runs: carriers"
                + " held now are unknown.");
      }
      said.addAll(d.notes());
    }
    return List.copyOf(said);
  }
}
