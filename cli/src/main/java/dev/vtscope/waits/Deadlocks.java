package dev.vtscope.waits;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.WaitEdge.Evidence;
import dev.vtscope.waits.WaitEdge.Resource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The deadlocks and starvations of thread dumps: the cycles of their {@link WaitGraph} (strongly
 * connected components, each reported once), every carrier held while what would free one needs a
 * carrier itself, and the chains that may be either but end where no dump names the holder. A
 * single dump proves only a cycle it states; a series of dumps in which a chain stands unchanged
 * says how long at least it has been stuck.
 */
public final class Deadlocks {

  private Deadlocks() {}

  /** What one dump shows, with as many carriers as it shows. */
  public static List<Deadlock> find(ThreadDump dump) {
    return find(dump, 0);
  }

  /**
   * What one dump shows.
   *
   * @param parallelism the scheduler's carriers when known otherwise, or 0
   */
  public static List<Deadlock> find(ThreadDump dump, int parallelism) {
    return find(dump, SchedulerLimits.ofParallelism(parallelism), Map.of(), false);
  }

  private static List<Deadlock> find(
      ThreadDump dump,
      SchedulerLimits limits,
      Map<Long, Resource.MonitorEntry> entering,
      boolean enteringPins) {
    return new Finding(WaitGraph.of(dump, limits, entering, enteringPins), dump.feature()).find();
  }

  /** What a series of dumps of one JVM shows, oldest first, with as many carriers as they show. */
  public static List<Deadlock> find(List<ThreadDump> series) {
    return find(series, 0);
  }

  /**
   * What a series of dumps of one JVM shows, oldest first: the last dump's findings, each marked
   * stuck for the time since the earliest dump from which on every dump has it, with the same
   * threads waiting at the same frames for the same things (at least the last two).
   *
   * @param parallelism the scheduler's carriers when known otherwise, or 0
   */
  public static List<Deadlock> find(List<ThreadDump> series, int parallelism) {
    return find(series, SchedulerLimits.ofParallelism(parallelism), null, feature -> false);
  }

  /**
   * What a series of dumps of one JVM shows, oldest first, as {@link #find(List, SchedulerLimits,
   * Attributor, java.util.function.IntPredicate)}, with only the parallelism known otherwise.
   *
   * @param parallelism the scheduler's carriers when known otherwise, or 0
   */
  public static List<Deadlock> find(
      List<ThreadDump> series,
      int parallelism,
      Attributor classes,
      java.util.function.IntPredicate monitorsHoldCarrier) {
    return find(series, SchedulerLimits.ofParallelism(parallelism), classes, monitorsHoldCarrier);
  }

  /**
   * What a series of dumps of one JVM shows, oldest first, with what class files add where the
   * dumps say nothing of monitors (JDK 21–23's JSON, a carried virtual thread's frames): a virtual
   * thread that stands in every dump from some dump on at a line that enters a monitor (its class
   * file shows a {@code synchronized} statement there, or a {@code synchronized} method starts
   * there), with the same stack, and whose carrier used almost no CPU in between where the dumps
   * say, waits to enter that monitor. Two or more such threads that each hold a monitor already are
   * reported as stuck over monitors, their holders unnamed.
   *
   * @param limits the scheduler's parallelism and maximum pool size, as far as the JVM said them
   * @param classes reads the class files of the dumps' frames; null to infer nothing
   * @param monitorsHoldCarrier whether waiting to enter a monitor pins on a JDK feature release
   */
  public static List<Deadlock> find(
      List<ThreadDump> series,
      SchedulerLimits limits,
      Attributor classes,
      java.util.function.IntPredicate monitorsHoldCarrier) {
    if (series.isEmpty()) {
      return List.of();
    }
    List<Map<Long, Resource.MonitorEntry>> entering =
        classes == null ? null : MonitorEntries.of(series, classes);
    // one dump only says where they may wait: not that they hold their carriers
    boolean seen = series.size() > 1;
    ThreadDump last = series.get(series.size() - 1);
    List<Deadlock> found =
        find(
            last,
            limits,
            entering == null ? Map.of() : entering.get(series.size() - 1),
            seen && monitorsHoldCarrier.test(last.feature()));
    if (series.size() < 2 || found.isEmpty()) {
      return found;
    }
    List<Set<Set<String>>> earlier = new ArrayList<>();
    for (int i = 0; i < series.size() - 1; i++) {
      ThreadDump d = series.get(i);
      Set<Set<String>> signatures = new HashSet<>();
      for (Deadlock x :
          find(
              d,
              limits,
              entering == null ? Map.of() : entering.get(i),
              monitorsHoldCarrier.test(d.feature()))) {
        signatures.add(signature(x));
      }
      earlier.add(signatures);
    }
    List<Deadlock> marked = new ArrayList<>();
    for (Deadlock d : found) {
      Set<String> s = signature(d);
      int since = earlier.size();
      while (since > 0 && earlier.get(since - 1).contains(s)) {
        since--;
      }
      if (since == earlier.size()) {
        marked.add(d);
        continue;
      }
      ThreadDump first = series.get(since);
      marked.add(
          d.stuckFor(
              first.takenAt() != null && last.takenAt() != null
                  ? Duration.between(first.takenAt(), last.takenAt())
                  : Duration.ZERO));
    }
    return marked;
  }

  /** What makes two dumps' findings the same: each edge's ends, where they wait, and for what. */
  private static Set<String> signature(Deadlock d) {
    Set<String> edges = new HashSet<>();
    edges.add(d.kind().name());
    for (WaitEdge e : d.edges()) {
      edges.add(
          label(d.nodes().get(e.waiter()))
              + " -> "
              + label(e.resource())
              + " -> "
              + (e.hasHolder() ? label(d.nodes().get(e.holder())) : "?"));
    }
    return edges;
  }

  private static String label(WaitGraph.Node n) {
    if (n == null) {
      return "?";
    }
    return switch (n.kind()) {
      case CARRIERS -> "carriers";
      case UNNAMED_OWNER -> "owner of " + label(n.owns());
      default -> n.id() + "@" + (n.at() == null ? "" : n.at().display());
    };
  }

  private static String label(Resource r) {
    if (r instanceof Resource.Monitor m) {
      return "monitor " + label(m.lock());
    } else if (r instanceof Resource.OwnableLock l) {
      return "lock " + label(l.lock());
    } else if (r instanceof Resource.MonitorEntry m) {
      return "entering " + m.at().display();
    } else if (r instanceof Resource.ClassInit c) {
      return "init " + c.className();
    } else if (r instanceof Resource.Release x) {
      return "release " + x.what();
    }
    return "carriers";
  }

  /** An object's class, and its id when it stays the same from dump to dump. */
  private static String label(ObjectRef ref) {
    return ref == null
        ? ""
        : ref.className() + (ref.kind() == ObjectRef.IdKind.IDENTITY ? "@" + ref.id() : "");
  }

  /** The method a thread waiting on a monitor's notify waits in, as a release edge names it. */
  static final String OBJECT_WAIT = "java.lang.Object.wait";

  private static final class Finding {
    final WaitGraph g;
    final int feature;
    final Map<Long, List<WaitEdge>> out = new HashMap<>();
    final Set<Long> covered = new HashSet<>();
    final List<Deadlock> found = new ArrayList<>();

    Finding(WaitGraph g, int feature) {
      this.g = g;
      this.feature = feature;
      for (WaitEdge e : g.edges()) {
        out.computeIfAbsent(e.waiter(), k -> new ArrayList<>()).add(e);
      }
    }

    List<Deadlock> find() {
      cycles();
      classInitStarvation();
      objectWaitStarvation();
      classInitChains();
      lockChains();
      openLockChains();
      monitorEntries();
      return List.copyOf(found);
    }

    private void cycles() {
      for (Set<Long> scc : new Tarjan(out).components()) {
        boolean selfLoop =
            scc.size() == 1
                && edgesFrom(scc.iterator().next()).stream()
                    .anyMatch(e -> e.holder() == e.waiter());
        if (scc.size() < 2 && !selfLoop) {
          continue;
        }
        long start =
            scc.contains(WaitGraph.CARRIERS)
                ? WaitGraph.CARRIERS
                : scc.stream()
                    .filter(id -> id >= 0)
                    .min(Long::compare)
                    .orElse(scc.iterator().next());
        List<WaitEdge> edges = cycle(start, scc);
        for (long id : scc) {
          for (WaitEdge e : edgesFrom(id)) {
            if (scc.contains(e.holder()) && !edges.contains(e)) {
              edges.add(e);
            }
          }
        }
        covered.addAll(scc);
        boolean starvation = scc.contains(WaitGraph.CARRIERS);
        if (starvation) {
          // every carrier's holder and what it waits for, those outside the cycle too: the
          // chain names all the carriers held
          for (WaitEdge held : edgesFrom(WaitGraph.CARRIERS)) {
            if (!edges.contains(held)) {
              edges.add(held);
            }
            for (WaitEdge e : edgesFrom(held.holder())) {
              if (!edges.contains(e)) {
                edges.add(e);
              }
            }
            covered.add(held.holder());
          }
        }
        add(kind(edges, starvation), true, edges, starvation);
      }
    }

    /** A path from {@code start} back to it, inside {@code scc}. */
    private List<WaitEdge> cycle(long start, Set<Long> scc) {
      Map<Long, WaitEdge> via = new HashMap<>();
      Deque<Long> queue = new ArrayDeque<>();
      queue.add(start);
      while (!queue.isEmpty()) {
        long n = queue.poll();
        for (WaitEdge e : edgesFrom(n)) {
          if (!scc.contains(e.holder())) {
            continue;
          }
          if (e.holder() == start) {
            List<WaitEdge> path = new ArrayList<>();
            path.add(e);
            for (long at = n; at != start; at = via.get(at).waiter()) {
              path.add(0, via.get(at));
            }
            return path;
          }
          if (!via.containsKey(e.holder())) {
            via.put(e.holder(), e);
            queue.add(e.holder());
          }
        }
      }
      return new ArrayList<>();
    }

    /** Every carrier held by threads waiting for one class's initialisation, or running it. */
    private void classInitStarvation() {
      if (!g.saturated() || covered.contains(WaitGraph.CARRIERS)) {
        return;
      }
      String cls = null;
      for (long h : g.carrierHolders()) {
        String c = initWaitedOrRun(h);
        if (c == null || (cls != null && !cls.equals(c))) {
          return;
        }
        cls = c;
      }
      // an initialiser that holds a carrier itself, with no one seen waiting for a carrier, is
      // what is stuck: a class-initialisation chain, whose carriers are a consequence
      boolean runnerHolds = false;
      for (WaitEdge e : g.edges()) {
        if (e.resource() instanceof Resource.ClassInit && e.hasHolder()) {
          runnerHolds |= g.carrierHolders().contains(e.holder());
        }
      }
      if (runnerHolds && g.needCarrier().isEmpty()) {
        return;
      }
      List<WaitEdge> edges = new ArrayList<>(edgesFrom(WaitGraph.CARRIERS));
      for (long h : g.carrierHolders()) {
        follow(h, edges, new HashSet<>(List.of(WaitGraph.CARRIERS)));
      }
      covered.add(WaitGraph.CARRIERS);
      covered.addAll(g.carrierHolders());
      add(Deadlock.Kind.CLASS_INIT_STARVATION, false, edges, true);
    }

    /**
     * Every carrier held by a virtual thread pinned in {@code Object.wait()} (JDK 21–23; with
     * others pinned waiting for a release no dump names), while virtual threads wait for a carrier:
     * the scheduler starts a carrier for each such waiter, up to its maximum pool size, and past it
     * no virtual thread runs, the one that would notify them included. Probable when the JVM said
     * the maximum and the dump shows that many carriers; possible when it did not (until a series
     * shows it stuck); nothing when it shows fewer, as the scheduler starts another.
     */
    private void objectWaitStarvation() {
      if (!g.saturated()
          || covered.contains(WaitGraph.CARRIERS)
          || g.needCarrier().isEmpty()
          || g.belowMaxPoolSize()) {
        return;
      }
      boolean objectWait = false;
      for (long h : g.carrierHolders()) {
        List<WaitEdge> own = edgesFrom(h);
        if (own.isEmpty()) {
          return; // a pinned sleep, a pin with no wait: it ends by itself
        }
        for (WaitEdge e : own) {
          if (!(e.resource() instanceof Resource.Release r)) {
            return;
          }
          objectWait |= r.what().equals(OBJECT_WAIT);
        }
      }
      if (!objectWait) {
        return;
      }
      boolean atMax = g.atMaxPoolSize();
      List<WaitEdge> edges = new ArrayList<>(edgesFrom(WaitGraph.CARRIERS));
      for (long h : g.carrierHolders()) {
        for (WaitEdge e : edgesFrom(h)) {
          // at the maximum, what would release them is read as needing a carrier, as a lock no
          // platform thread owns is
          edges.add(
              atMax ? new WaitEdge(e.waiter(), e.resource(), e.holder(), Evidence.INFERRED) : e);
        }
      }
      covered.add(WaitGraph.CARRIERS);
      covered.addAll(g.carrierHolders());
      add(Deadlock.Kind.OBJECT_WAIT_STARVATION, atMax, edges, true);
    }

    /** The class whose initialisation {@code id} waits for or runs while others wait, or null. */
    private String initWaitedOrRun(long id) {
      for (WaitEdge e : edgesFrom(id)) {
        if (e.resource() instanceof Resource.ClassInit c) {
          return c.className();
        }
      }
      for (WaitEdge e : g.edges()) {
        if (e.holder() == id && e.resource() instanceof Resource.ClassInit c) {
          return c.className();
        }
      }
      return null;
    }

    /**
     * A thread running a class's initialisation that waits for what no dump names, while another
     * waits for that initialisation: what it waits for may need the other.
     */
    private void classInitChains() {
      Map<Long, List<WaitEdge>> byRunner = new LinkedHashMap<>();
      for (WaitEdge e : g.edges()) {
        if (e.resource() instanceof Resource.ClassInit
            && e.hasHolder()
            && !covered.contains(e.holder())
            && !covered.contains(e.waiter())) {
          byRunner.computeIfAbsent(e.holder(), k -> new ArrayList<>()).add(e);
        }
      }
      for (var runner : byRunner.entrySet()) {
        List<WaitEdge> own = edgesFrom(runner.getKey());
        if (own.isEmpty() || own.stream().anyMatch(WaitEdge::hasHolder)) {
          continue;
        }
        List<WaitEdge> edges = new ArrayList<>(runner.getValue());
        edges.addAll(own);
        for (WaitEdge e : edges) {
          covered.add(e.waiter());
        }
        add(Deadlock.Kind.CLASS_INIT, false, edges, false);
      }
    }

    /**
     * Threads waiting for different {@code java.util.concurrent} locks whose owners no dump names:
     * they may hold each other's, and only a series of dumps tells a cycle from a long hold.
     */
    private void lockChains() {
      List<WaitEdge> edges = new ArrayList<>();
      Set<String> locks = new HashSet<>();
      boolean idsKnown = true;
      for (WaitEdge e : g.edges()) {
        if (e.resource() instanceof Resource.OwnableLock l
            && !e.hasHolder()
            && !covered.contains(e.waiter())) {
          edges.add(e);
          idsKnown &= l.lock().id() != null;
          locks.add(String.valueOf(l.lock().id()));
        }
      }
      if (edges.size() >= 2 && (!idsKnown || locks.size() >= 2)) {
        add(Deadlock.Kind.LOCK, false, edges, false);
      }
    }

    /**
     * A thread waiting for a {@code java.util.concurrent} lock whose owner no dump names, while
     * others wait for what it holds (a monitor, a lock): the owner may be one of them, as when two
     * threads take a monitor and a lock in opposite orders; only a series tells it from a long
     * hold.
     */
    private void openLockChains() {
      for (WaitEdge end : g.edges()) {
        if (!(end.resource() instanceof Resource.OwnableLock)
            || end.hasHolder()
            || covered.contains(end.waiter())) {
          continue;
        }
        List<WaitEdge> edges = new ArrayList<>();
        for (WaitEdge e : g.edges()) {
          if (e.hasHolder() && e.holder() == end.waiter() && !covered.contains(e.waiter())) {
            edges.add(e);
          }
        }
        if (edges.isEmpty()) {
          continue;
        }
        edges.add(end);
        for (WaitEdge e : edges) {
          covered.add(e.waiter());
        }
        add(kind(edges, false), false, edges, false);
      }
    }

    /**
     * Virtual threads stuck entering monitors while each holds one already, which no dump of JDK
     * 21–23 names: the pattern of a lock-order deadlock, its holders unnamed.
     */
    private void monitorEntries() {
      List<WaitEdge> edges = new ArrayList<>();
      for (WaitEdge e : g.edges()) {
        if (e.resource() instanceof Resource.MonitorEntry m
            && m.holding() != null
            && !covered.contains(e.waiter())) {
          edges.add(e);
        }
      }
      if (edges.size() >= 2) {
        for (WaitEdge e : edges) {
          covered.add(e.waiter());
        }
        add(Deadlock.Kind.MONITOR, false, edges, false);
      }
    }

    /** The edges from {@code id}, and on from their holders, each once. */
    private void follow(long id, List<WaitEdge> edges, Set<Long> seen) {
      if (!seen.add(id)) {
        return;
      }
      for (WaitEdge e : edgesFrom(id)) {
        if (!edges.contains(e)) {
          edges.add(e);
        }
        if (e.hasHolder()) {
          follow(e.holder(), edges, seen);
        }
      }
    }

    private static Deadlock.Kind kind(List<WaitEdge> edges, boolean starvation) {
      boolean monitor = false;
      boolean lock = false;
      boolean init = false;
      for (WaitEdge e : edges) {
        monitor |=
            e.resource() instanceof Resource.Monitor
                || e.resource() instanceof Resource.MonitorEntry;
        lock |= e.resource() instanceof Resource.OwnableLock;
        init |= e.resource() instanceof Resource.ClassInit;
      }
      if (starvation) {
        return init && !lock && !monitor
            ? Deadlock.Kind.CLASS_INIT_STARVATION
            : Deadlock.Kind.CARRIER_STARVATION;
      }
      if (init) {
        return Deadlock.Kind.CLASS_INIT;
      }
      return monitor && lock
          ? Deadlock.Kind.LOCK_AND_MONITOR
          : lock ? Deadlock.Kind.LOCK : Deadlock.Kind.MONITOR;
    }

    private void add(Deadlock.Kind kind, boolean closed, List<WaitEdge> edges, boolean starvation) {
      Map<Long, WaitGraph.Node> nodes = new LinkedHashMap<>();
      Evidence weakest = Evidence.STATED;
      for (WaitEdge e : edges) {
        weakest = weakest.weaker(e.evidence());
        nodes.putIfAbsent(e.waiter(), g.nodes().get(e.waiter()));
        if (e.hasHolder()) {
          nodes.putIfAbsent(e.holder(), g.nodes().get(e.holder()));
        }
      }
      nodes.values().removeIf(java.util.Objects::isNull);
      List<WaitGraph.Node> need = new ArrayList<>();
      if (starvation) {
        for (long n : g.needCarrier()) {
          need.add(g.nodes().get(n));
        }
      }
      found.add(
          new Deadlock(
              kind,
              closed,
              edges,
              nodes,
              weakest,
              starvation ? g.capacity() : 0,
              need,
              null,
              feature,
              starvation ? g.maxPoolSize() : 0));
    }

    private List<WaitEdge> edgesFrom(long id) {
      return out.getOrDefault(id, List.of());
    }
  }

  /** Tarjan's strongly connected components over the edges that name their holder. */
  private static final class Tarjan {
    final Map<Long, List<WaitEdge>> out;
    final Map<Long, Integer> index = new HashMap<>();
    final Map<Long, Integer> low = new HashMap<>();
    final Deque<Long> stack = new ArrayDeque<>();
    final Set<Long> onStack = new HashSet<>();
    final List<Set<Long>> components = new ArrayList<>();
    int next;

    Tarjan(Map<Long, List<WaitEdge>> out) {
      this.out = out;
    }

    List<Set<Long>> components() {
      for (long n : new ArrayList<>(out.keySet())) {
        if (!index.containsKey(n)) {
          visit(n);
        }
      }
      return components;
    }

    private void visit(long n) {
      index.put(n, next);
      low.put(n, next);
      next++;
      stack.push(n);
      onStack.add(n);
      for (WaitEdge e : out.getOrDefault(n, List.of())) {
        if (!e.hasHolder()) {
          continue;
        }
        long m = e.holder();
        if (!index.containsKey(m)) {
          visit(m);
          low.put(n, Math.min(low.get(n), low.get(m)));
        } else if (onStack.contains(m)) {
          low.put(n, Math.min(low.get(n), index.get(m)));
        }
      }
      if (low.get(n).equals(index.get(n))) {
        Set<Long> component = new LinkedHashSet<>();
        long m;
        do {
          m = stack.pop();
          onStack.remove(m);
          component.add(m);
        } while (m != n);
        components.add(component);
      }
    }
  }
}
