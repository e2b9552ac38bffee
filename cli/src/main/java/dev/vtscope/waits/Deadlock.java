package dev.vtscope.waits;

import dev.vtscope.waits.WaitEdge.Evidence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A deadlock, a starvation of the carriers, or a chain of waits that may be one, found in thread
 * dumps: every thread, frame and object of it, with the weakest evidence of its edges.
 *
 * @param kind what waits for what
 * @param closed whether the waits close a cycle; false for a chain whose end no dump names (an open
 *     chain: the owner of a {@code java.util.concurrent} lock, the target of a join)
 * @param edges its edges, the first ones running along the cycle (or down the chain) in order
 * @param nodes the nodes its edges name, by id
 * @param weakest the weakest evidence among its edges
 * @param capacity for a starvation, the scheduler's carriers; else 0
 * @param needCarrier for a starvation, the virtual threads waiting for a carrier; else empty
 * @param stuckAtLeast how long it stood unchanged in a series of dumps, or null for one dump
 * @param feature the JDK's feature release of the dump, or 0 when not known
 * @param maxPoolSize for a starvation, the scheduler's maximum pool size as the JVM said it, or 0
 *     when not known
 */
public record Deadlock(
    Kind kind,
    boolean closed,
    List<WaitEdge> edges,
    Map<Long, WaitGraph.Node> nodes,
    Evidence weakest,
    int capacity,
    List<WaitGraph.Node> needCarrier,
    Duration stuckAtLeast,
    int feature,
    int maxPoolSize) {

  public Deadlock {
    edges = List.copyOf(edges);
    nodes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(nodes));
    needCarrier = List.copyOf(needCarrier);
  }

  /** What waits for what. */
  public enum Kind {
    /** Threads wait for each other's monitors. */
    MONITOR,
    /** Threads wait for each other's {@code java.util.concurrent} locks. */
    LOCK,
    /** Monitors and {@code java.util.concurrent} locks mixed. */
    LOCK_AND_MONITOR,
    /**
     * A thread running a class's {@code <clinit>} waits for something that needs a thread waiting
     * for that initialisation.
     */
    CLASS_INIT,
    /**
     * Every carrier is held by a pinned virtual thread, and what they wait for can only be released
     * by a virtual thread that needs a carrier: the JDK 21–23 deadlock no JVM detector reports.
     */
    CARRIER_STARVATION,
    /** Every carrier waits for one class to finish initialising. */
    CLASS_INIT_STARVATION,
    /**
     * Every carrier, as many as the scheduler may start, is held by a virtual thread pinned in
     * {@code Object.wait()}, and virtual threads wait for a carrier: the JDK 21–23 hang at the
     * scheduler's maximum pool size, in which the thread that would notify the waiters never runs.
     */
    OBJECT_WAIT_STARVATION
  }

  /**
   * Whether a single dump proves it: its waits close a cycle and the dump states every edge. What
   * is not proven is a possible deadlock, until a series of dumps shows it stuck.
   */
  public boolean proven() {
    return closed && weakest == Evidence.STATED;
  }

  /** Whether a series of dumps showed it unchanged. */
  public boolean stuck() {
    return stuckAtLeast != null;
  }

  /** The threads of it, in the order of its edges. */
  public List<WaitGraph.Node> threads() {
    List<WaitGraph.Node> threads = new ArrayList<>();
    for (WaitEdge e : edges) {
      for (long id : new long[] {e.waiter(), e.holder()}) {
        WaitGraph.Node n = nodes.get(id);
        if (n != null && n.isThread() && !threads.contains(n)) {
          threads.add(n);
        }
      }
    }
    return threads;
  }

  /** Whether a thread of it holds its carrier while blocked: a pin that does not end. */
  public boolean pins() {
    return threads().stream().anyMatch(WaitGraph.Node::holdsCarrier);
  }

  /** The same, seen unchanged for {@code duration}. */
  public Deadlock stuckFor(Duration duration) {
    return new Deadlock(
        kind, closed, edges, nodes, weakest, capacity, needCarrier, duration, feature, maxPoolSize);
  }
}
