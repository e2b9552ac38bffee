package dev.vtscope.waits;

import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Several dumps of one JVM, in time order, and what their waits did in between: a wait whose
 * threads are the same (by id) with the same key and stack in every dump is stuck for at least the
 * time between the first and the last; one whose threads change moves.
 *
 * @param dumps each dump's groups, in time order
 * @param span the time between the first dump and the last, or null when a dump has no time ({@code
 *     Thread.print})
 * @param groups every group of any dump, the most telling of the last dump first
 */
public record WaitSeries(List<DumpWaits> dumps, Duration span, List<Trend> groups) {

  public WaitSeries {
    dumps = List.copyOf(dumps);
    groups = List.copyOf(groups);
  }

  /**
   * One wait across the dumps.
   *
   * @param key what is waited for, where
   * @param threads how many threads wait so in each dump, in time order
   * @param persistent how many threads wait so in every dump, the same threads with the same stack
   * @param arrived how many threads of the last dump's group were not in it in the one before
   */
  public record Trend(WaitKey key, List<Integer> threads, int persistent, int arrived) {
    public Trend {
      threads = List.copyOf(threads);
    }

    /**
     * Whether some of its threads are stuck: the same wait in every dump. An idle pool's workers
     * and the JVM's own threads wait so by design: never stuck.
     */
    public boolean stuck() {
      return persistent > 0 && key.kind() != WaitKind.IDLE_WORKER && !key.jvmOwn();
    }

    /** Whether it is stuck and no smaller in the last dump than in the first: no queue draining. */
    public boolean notDraining() {
      return stuck() && threads.get(threads.size() - 1) >= threads.get(0);
    }
  }

  /** What one thread waits for in one dump, kept to compare it with the next. */
  private record Seen(WaitKey key, RecordedStack stack) {}

  /**
   * The series of {@code dumps}, which are of one JVM (one pid and runtime version, which the
   * caller checks) and in time order.
   */
  public static WaitSeries of(List<ThreadDump> dumps, WaitClassifier classifier) {
    if (dumps.isEmpty()) {
      throw new IllegalArgumentException("a series of no dumps");
    }
    List<DumpWaits> waits = new ArrayList<>();
    List<Map<Long, Seen>> seen = new ArrayList<>();
    List<java.util.Set<Long>> entering = classifier.enteringPinned(dumps);
    for (int d = 0; d < dumps.size(); d++) {
      ThreadDump dump = dumps.get(d);
      List<Wait> read = WaitGrouping.waits(dump, classifier, entering.get(d));
      waits.add(WaitGrouping.of(dump, read, entering.get(d)));
      Map<Long, Seen> byTid = new HashMap<>(dump.threads().size() * 2);
      for (int i = 0; i < read.size(); i++) {
        DumpedThread t = dump.threads().get(i);
        byTid.put(t.tid(), new Seen(read.get(i).key(), t.stack()));
      }
      seen.add(byTid);
    }
    Map<WaitKey, int[]> sizes = new LinkedHashMap<>();
    for (int i = 0; i < waits.size(); i++) {
      for (WaitGroup g : waits.get(i).groups()) {
        sizes.computeIfAbsent(g.key(), k -> new int[dumps.size()])[i] = g.threads();
      }
    }
    Map<WaitKey, Integer> persistent = new HashMap<>();
    Map<WaitKey, Integer> arrived = new HashMap<>();
    Map<Long, Seen> last = seen.get(seen.size() - 1);
    Map<Long, Seen> before = seen.size() > 1 ? seen.get(seen.size() - 2) : Map.of();
    for (Map.Entry<Long, Seen> e : last.entrySet()) {
      Seen now = e.getValue();
      boolean always = true;
      for (int i = 0; i < seen.size() - 1 && always; i++) {
        Seen then = seen.get(i).get(e.getKey());
        always = then != null && then.key().equals(now.key()) && sameStack(then, now);
      }
      if (always && seen.size() > 1) {
        persistent.merge(now.key(), 1, Integer::sum);
      }
      Seen previous = before.get(e.getKey());
      if (seen.size() > 1 && (previous == null || !previous.key().equals(now.key()))) {
        arrived.merge(now.key(), 1, Integer::sum);
      }
    }
    List<Trend> trends = new ArrayList<>();
    DumpWaits newest = waits.get(waits.size() - 1);
    for (WaitGroup g : newest.groups()) {
      trends.add(trend(g.key(), sizes.remove(g.key()), persistent, arrived));
    }
    // groups gone by the last dump come after, the largest first
    List<WaitKey> gone = new ArrayList<>(sizes.keySet());
    gone.sort(
        java.util.Comparator.comparingInt((WaitKey k) -> max(sizes.get(k)))
            .reversed()
            .thenComparing(WaitKey::toString));
    for (WaitKey k : gone) {
      trends.add(trend(k, sizes.get(k), persistent, arrived));
    }
    return new WaitSeries(waits, span(dumps), trends);
  }

  private static boolean sameStack(Seen a, Seen b) {
    return Objects.equals(a.stack(), b.stack());
  }

  private static Trend trend(
      WaitKey key, int[] sizes, Map<WaitKey, Integer> persistent, Map<WaitKey, Integer> arrived) {
    List<Integer> threads = new ArrayList<>(sizes.length);
    for (int s : sizes) {
      threads.add(s);
    }
    return new Trend(key, threads, persistent.getOrDefault(key, 0), arrived.getOrDefault(key, 0));
  }

  private static int max(int[] sizes) {
    int max = 0;
    for (int s : sizes) {
      max = Math.max(max, s);
    }
    return max;
  }

  private static Duration span(List<ThreadDump> dumps) {
    ThreadDump first = dumps.get(0);
    ThreadDump last = dumps.get(dumps.size() - 1);
    return first.takenAt() == null || last.takenAt() == null
        ? null
        : Duration.between(first.takenAt(), last.takenAt());
  }
}
