package dev.vtscope.waits;

import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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

  /** How many threads at one place, each waiting for an object of its own, are one wait. */
  static final int OWN_OBJECTS = 3;

  /** How many of a group's objects, each waited for by one of its threads, are counted. */
  static final int MANY_OBJECTS = 100_000;

  private WaitGrouping() {}

  /** Counts one group while the dump's threads are read. */
  private static final class Counting {
    final Wait first;
    final RecordedStack example;

    /** The objects its threads wait for, each their own: as far as {@link #MANY_OBJECTS}. */
    final Set<String> objects = new HashSet<>();

    final List<WaitGroup.SampledThread> sampled = new ArrayList<>(SAMPLED);
    int virtual;
    int platform;
    int unknown;
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
          unknown,
          held,
          first.entry(),
          first.via(),
          first.site(),
          first.operation(),
          objects.size(),
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
   * Every thread of {@code waits}' dump by what it waits for, each read by {@code classifier} as
   * {@link #of} read it, in the dump's order: a group's threads in full, where the group samples a
   * few.
   */
  public static Map<WaitKey, List<DumpedThread>> members(
      DumpWaits read, WaitClassifier classifier) {
    ThreadDump dump = read.dump();
    Map<WaitKey, List<DumpedThread>> members = new LinkedHashMap<>();
    List<Wait> waits = waits(dump, classifier, read.enteringMonitor());
    for (int i = 0; i < waits.size(); i++) {
      members
          .computeIfAbsent(waits.get(i).key(), k -> new ArrayList<>())
          .add(dump.threads().get(i));
    }
    return members;
  }

  /**
   * What each thread of {@code dump} waits for, in the dump's order, read by {@code classifier}: by
   * the object too where threads share it, and not where each waits for an object of its own. A
   * pool that gives each waiter its own {@code Condition} (HttpClient's) would otherwise be as many
   * waits as waiters on a JDK whose dump names objects, where a dump that names none (JDK 21's
   * JSON) shows one: when {@link #OWN_OBJECTS} threads or more at one place each wait for an object
   * no other thread waits for, their objects are left out of their key. Fewer keep theirs: the two
   * threads of a lock-order cycle, each blocked on the other's lock at the same line, read best
   * with each lock named.
   */
  static List<Wait> waits(ThreadDump dump, WaitClassifier classifier, Set<Long> entering) {
    List<Wait> waits = new ArrayList<>(dump.threads().size());
    Map<WaitKey, Integer> waiters = new HashMap<>();
    for (DumpedThread t : dump.threads()) {
      Wait w = classifier.classify(t);
      if (entering.contains(t.tid())) {
        // it looks as if it ran there; the series shows it waiting to enter the monitor
        WaitKey k = w.key();
        w =
            w.withKey(
                new WaitKey(WaitKind.MONITOR_ENTER, null, null, k.entry(), k.via(), k.site()));
      }
      waits.add(w);
      if (w.key().resourceId() != null) {
        waiters.merge(w.key(), 1, Integer::sum);
      }
    }
    // of each place, how many objects have one waiter only
    Map<WaitKey, Integer> lone = new HashMap<>();
    waiters.forEach(
        (key, n) -> {
          if (n == 1) {
            lone.merge(key.withoutObject(), 1, Integer::sum);
          }
        });
    for (int i = 0; i < waits.size(); i++) {
      WaitKey key = waits.get(i).key();
      if (key.resourceId() != null
          && waiters.get(key) == 1
          && lone.getOrDefault(key.withoutObject(), 0) >= OWN_OBJECTS) {
        waits.set(i, waits.get(i).withKey(key.withoutObject()));
      }
    }
    return waits;
  }

  /** What the threads of {@code dump} wait for. */
  public static DumpWaits of(ThreadDump dump, FrameOwnership ownership) {
    return of(dump, new WaitClassifier(ownership));
  }

  /** What the threads of {@code dump} wait for, each read by {@code classifier}. */
  public static DumpWaits of(ThreadDump dump, WaitClassifier classifier) {
    return of(dump, waits(dump, classifier, Set.of()), Set.of());
  }

  /**
   * The threads of {@code dump} grouped by {@code waits}, what each waits for ({@link #waits}).
   *
   * @param entering the ids of its virtual threads that a series shows waiting to enter a monitor,
   *     holding their carrier
   */
  static DumpWaits of(ThreadDump dump, List<Wait> waits, Set<Long> entering) {
    Map<WaitKey, Counting> groups = new LinkedHashMap<>();
    Set<Long> mounted = CarrierHolding.mounted(dump);
    int virtual = 0;
    int unknown = 0;
    for (int i = 0; i < waits.size(); i++) {
      DumpedThread t = dump.threads().get(i);
      Wait w = waits.get(i);
      Counting c = groups.computeIfAbsent(w.key(), k -> new Counting(w, t.stack()));
      // the objects of threads each waiting for its own, whose key names none
      if (w.object() != null && w.key().resourceId() == null && c.objects.size() < MANY_OBJECTS) {
        c.objects.add(w.object());
      }
      switch (t.toldKind()) {
        case VIRTUAL -> {
          virtual++;
          c.virtual++;
          if (CarrierHolding.holdsCarrier(t, mounted, entering.contains(t.tid()))) {
            c.held++;
          }
        }
        case PLATFORM -> c.platform++;
        case UNKNOWN -> {
          unknown++;
          c.unknown++;
        }
      }
      if (c.sampled.size() < SAMPLED) {
        c.sampled.add(new WaitGroup.SampledThread(t.tid(), t.name()));
      }
    }
    List<WaitGroup> sorted = new ArrayList<>(groups.size());
    groups.values().forEach(c -> sorted.add(c.group()));
    sorted.sort(MOST_TELLING);
    return new DumpWaits(
        dump, virtual, dump.threads().size() - virtual - unknown, unknown, sorted, entering);
  }
}
