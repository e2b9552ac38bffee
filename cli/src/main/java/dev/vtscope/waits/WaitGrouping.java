package dev.vtscope.waits;

import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Groups the threads of a dump by what they wait for ({@link WaitKey}): a count and a few names per
 * group, so that its memory goes with the groups, not with the threads.
 */
public final class WaitGrouping {

  /** How many threads of a group are named. */
  public static final int SAMPLED = 3;

  private WaitGrouping() {}

  /** Counts one group while the dump's threads are read. */
  private static final class Counting {
    final Wait first;
    final RecordedStack example;
    final List<WaitGroup.SampledThread> sampled = new ArrayList<>(SAMPLED);
    int virtual;
    int platform;
    int held;

    Counting(Wait w, RecordedStack example) {
      this.first = w;
      this.example = example;
    }

    WaitGroup group() {
      return new WaitGroup(
          first.key(),
          virtual,
          platform,
          held,
          first.entry(),
          first.via(),
          first.site(),
          first.operation(),
          sampled,
          example);
    }
  }

  /**
   * The most telling group first: carriers held, the application's waits before idle and JDK-only
   * ones, the largest, then by kind and key, so that the order never depends on the input's.
   */
  public static final Comparator<WaitGroup> MOST_TELLING =
      Comparator.comparingInt(WaitGroup::carriersHeld)
          .reversed()
          // the JVM's own threads, however many, last
          .thenComparing(WaitGroup::jvmOwn)
          .thenComparing(g -> g.key().kind().idle() || g.site() == null)
          .thenComparing(Comparator.comparingInt(WaitGroup::threads).reversed())
          // of equal groups, contention (monitors, locks, synchronizers) before sleep and work
          .thenComparing(g -> g.key().kind())
          .thenComparing(g -> g.key().toString());

  /**
   * Every thread of {@code dump} by what it waits for, each read by {@code classifier} as {@link
   * #of} reads it, in the dump's order: a group's threads in full, where the group samples a few.
   */
  public static Map<WaitKey, List<DumpedThread>> members(
      ThreadDump dump, WaitClassifier classifier) {
    Map<WaitKey, List<DumpedThread>> members = new LinkedHashMap<>();
    for (DumpedThread t : dump.threads()) {
      members.computeIfAbsent(classifier.classify(t).key(), k -> new ArrayList<>()).add(t);
    }
    return members;
  }

  /** What the threads of {@code dump} wait for. */
  public static DumpWaits of(ThreadDump dump, FrameOwnership ownership) {
    return of(dump, new WaitClassifier(ownership));
  }

  /** What the threads of {@code dump} wait for, each read by {@code classifier}. */
  public static DumpWaits of(ThreadDump dump, WaitClassifier classifier) {
    Map<WaitKey, Counting> groups = new LinkedHashMap<>();
    Set<Long> mounted = CarrierHolding.mounted(dump);
    int virtual = 0;
    for (DumpedThread t : dump.threads()) {
      Wait w = classifier.classify(t);
      Counting c = groups.computeIfAbsent(w.key(), k -> new Counting(w, t.stack()));
      if (t.isVirtual()) {
        virtual++;
        c.virtual++;
        if (CarrierHolding.holdsCarrier(t, mounted, false)) {
          c.held++;
        }
      } else {
        c.platform++;
      }
      if (c.sampled.size() < SAMPLED) {
        c.sampled.add(new WaitGroup.SampledThread(t.tid(), t.name()));
      }
    }
    List<WaitGroup> sorted = new ArrayList<>(groups.size());
    groups.values().forEach(c -> sorted.add(c.group()));
    sorted.sort(MOST_TELLING);
    return new DumpWaits(dump, virtual, dump.threads().size() - virtual, sorted);
  }
}
