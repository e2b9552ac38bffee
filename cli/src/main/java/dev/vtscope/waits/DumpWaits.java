package dev.vtscope.waits;

import dev.vtscope.threaddump.ThreadDump;
import java.util.List;
import java.util.Set;

/**
 * What the threads of one dump wait for, in groups.
 *
 * @param dump the dump's facts: its format, JVM, time, notes (its threads too, which the groups
 *     count)
 * @param virtualThreads how many of its threads are virtual
 * @param platformThreads how many are platform threads
 * @param unknownThreads how many it does not tell virtual or platform: no frames, in JDK 21's JSON
 *     alone ({@link dev.vtscope.threaddump.DumpedThread#toldKind})
 * @param groups the groups, the most telling first: carriers held, then waits of the application
 *     before idle and JDK-only ones, then the largest
 * @param enteringMonitor the ids of its virtual threads a series shows waiting to enter a monitor,
 *     which the dump does not say (JDK 21–23): their waits are read so
 */
public record DumpWaits(
    ThreadDump dump,
    int virtualThreads,
    int platformThreads,
    int unknownThreads,
    List<WaitGroup> groups,
    Set<Long> enteringMonitor) {

  public DumpWaits {
    groups = List.copyOf(groups);
    enteringMonitor = Set.copyOf(enteringMonitor);
  }

  /** How many threads it lists. */
  public int threads() {
    return virtualThreads + platformThreads + unknownThreads;
  }

  /** How many of its virtual threads hold their carrier while blocked. */
  public int carriersHeld() {
    return groups.stream().mapToInt(WaitGroup::carriersHeld).sum();
  }

  /**
   * How many of its virtual threads are mounted with frames the dump does not print (JDK 21's
   * {@code Thread.print}): each runs or holds its carrier blocked, which the dump cannot tell.
   */
  public int mountedUnseen() {
    return groups.stream()
        .filter(WaitGroup::mountedUnseen)
        .mapToInt(WaitGroup::virtualThreads)
        .sum();
  }

  /** The group of this key, or null. */
  public WaitGroup group(WaitKey key) {
    for (WaitGroup g : groups) {
      if (g.key().equals(key)) {
        return g;
      }
    }
    return null;
  }
}
