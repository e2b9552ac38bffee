package dev.vtscope.waits;

import dev.vtscope.recording.Frame;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.threaddump.ThreadContainer;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import dev.vtscope.threaddump.VmDeadlock;
import dev.vtscope.waits.WaitEdge.Evidence;
import dev.vtscope.waits.WaitEdge.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who waits for whom in one thread dump: the threads, a node for the virtual-thread scheduler's
 * carriers, and an edge from each waiter to the holder of what it waits for, with how the edge is
 * known.
 *
 * <p>How holders are found, as the JDK's formats allow (docs/thread-dumps.md): a monitor's holder
 * lists it among its monitors (JSON of JDK 25, {@code - locked} in {@code Thread.print}), except a
 * thread in {@code Object.wait()} on it, which the JDK lists as holding it too (JDK-8361926); an
 * ownable {@code java.util.concurrent} lock's holder is the park blocker's owner (JDK 26+) or the
 * platform thread whose {@code Locked ownable synchronizers} list it, else no dump names it; a
 * class's initialisation is run by the thread with its {@code <clinit>} on its stack. When every
 * carrier is held by a virtual thread blocked while pinned or waiting for a class's initialisation,
 * the virtual threads that need a carrier to go on wait for the carriers, which wait for their
 * holders; a lock held by no platform thread is then held by a virtual thread that is not mounted,
 * which needs a carrier to release it. The carriers are the scheduler's parallelism when known,
 * else those the dump shows; with threads pinned in {@code Object.wait()}, for each of which the
 * scheduler starts another carrier up to its maximum pool size, those the dump shows.
 *
 * @param nodes the threads and stand-ins, by id
 * @param edges who waits for whom
 * @param capacity the scheduler's carriers, or 0 when the dump shows none
 * @param carrierHolders the virtual threads holding a carrier while blocked
 * @param needCarrier the virtual threads that wait for a carrier to go on, when every carrier is
 *     held; empty otherwise
 * @param carriersSeen the carriers the dump shows (the workers of the scheduler's pool), or 0
 * @param maxPoolSize the most carriers the scheduler may start, as the JVM says it, or 0 when not
 *     known
 */
public record WaitGraph(
    Map<Long, Node> nodes,
    List<WaitEdge> edges,
    int capacity,
    List<Long> carrierHolders,
    List<Long> needCarrier,
    int carriersSeen,
    int maxPoolSize) {

  /** The node of the scheduler's carriers. */
  public static final long CARRIERS = -2;

  private static final String POOL_WORKER = "-worker-";
  private static final Pattern HELD_BY = Pattern.compile("which is held by \"(.*)\"\\s*$");

  public WaitGraph {
    nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    edges = List.copyOf(edges);
    carrierHolders = List.copyOf(carrierHolders);
    needCarrier = List.copyOf(needCarrier);
  }

  /**
   * A node: a thread of the dump, the carriers, or the owner of a lock that no dump names.
   *
   * @param id the thread's id; {@link #CARRIERS}; a negative id below it for a stand-in
   * @param name the thread's name; empty for the others
   * @param kind which of these it is
   * @param at where it waits: its innermost application frame, else its innermost frame; null when
   *     the dump prints no frames of it
   * @param holdsCarrier whether it is a virtual thread that holds its carrier while blocked
   * @param owns for a stand-in, the lock it owns; else null
   */
  public record Node(
      long id, String name, Kind kind, Frame at, boolean holdsCarrier, ObjectRef owns) {

    /** What a node stands for. */
    public enum Kind {
      PLATFORM,
      VIRTUAL,
      /** The virtual-thread scheduler's carriers, all held. */
      CARRIERS,
      /** The owner of a lock no dump names: a virtual thread not mounted, or one that ended. */
      UNNAMED_OWNER
    }

    /** Whether it is a thread of the dump. */
    public boolean isThread() {
      return kind == Kind.PLATFORM || kind == Kind.VIRTUAL;
    }
  }

  /** Whether every carrier is held. */
  public boolean saturated() {
    return capacity > 0 && carrierHolders.size() >= capacity;
  }

  /**
   * Whether the scheduler may start no carrier beyond those the dump shows: they are as many as the
   * JVM's {@code jdk.virtualThreadScheduler.maxPoolSize}.
   */
  public boolean atMaxPoolSize() {
    return maxPoolSize > 0 && carriersSeen >= maxPoolSize;
  }

  /**
   * Whether the JVM's maximum pool size is known and the dump shows fewer carriers: the scheduler
   * starts another for the next thread pinned in {@code Object.wait()}.
   */
  public boolean belowMaxPoolSize() {
    return maxPoolSize > 0 && carriersSeen < maxPoolSize;
  }

  /** The edges from {@code id}. */
  public List<WaitEdge> from(long id) {
    return edges.stream().filter(e -> e.waiter() == id).toList();
  }

  /** The graph of {@code dump}, with as many carriers as the dump shows. */
  public static WaitGraph of(ThreadDump dump) {
    return of(dump, 0);
  }

  /**
   * The graph of {@code dump}.
   *
   * @param parallelism the scheduler's carriers when known otherwise (a recording's settings, the
   *     JVM's options), or 0 to count those the dump shows
   */
  public static WaitGraph of(ThreadDump dump, int parallelism) {
    return of(dump, SchedulerLimits.ofParallelism(parallelism), Map.of(), false);
  }

  /**
   * The graph of {@code dump}, with the virtual threads a series of dumps shows waiting to enter a
   * monitor, which the dump does not say.
   *
   * @param limits the scheduler's parallelism and maximum pool size, as far as the JVM said them
   * @param entering by thread id, where each such thread enters a monitor
   * @param enteringPins whether those threads hold their carriers while they wait (before JDK 24)
   */
  public static WaitGraph of(
      ThreadDump dump,
      SchedulerLimits limits,
      Map<Long, Resource.MonitorEntry> entering,
      boolean enteringPins) {
    return new Building(dump, entering, enteringPins).build(limits);
  }

  /**
   * Whether a thread may be a link of a wait chain: blocked on a lock or a class's initialisation,
   * holding a monitor, or running a class's initialisation. Which a dump of a JVM with very many
   * virtual threads keeps of those not mounted, since a chain can run through them.
   */
  public static boolean mayBeLinked(DumpedThread t) {
    if (!t.monitors().isEmpty()) {
      return true;
    }
    Blocker b = t.blocker();
    if (b instanceof Blocker.MonitorEnter || b instanceof Blocker.ClassInit) {
      return true;
    }
    if (b instanceof Blocker.Parked p && isOwnable(p.blocker())) {
      return true;
    }
    for (Frame f : t.frames()) {
      if (f.method().equals("<clinit>") || isOwnableLockCall(f)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOwnable(ObjectRef ref) {
    return ref != null
        && ref.className() != null
        && (ref.className().startsWith("java.util.concurrent.locks.ReentrantLock$")
            || ref.className().startsWith("java.util.concurrent.locks.ReentrantReadWriteLock$"));
  }

  private static boolean isOwnableLockCall(Frame f) {
    return (f.className().equals("java.util.concurrent.locks.ReentrantLock")
            || f.className().equals("java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock"))
        && f.method().startsWith("lock");
  }

  /** One object as both sides of an edge name it: ids of different kinds never match. */
  private record Key(String id, ObjectRef.IdKind kind) {
    static Key of(ObjectRef ref) {
      return ref == null || ref.id() == null ? null : new Key(ref.id(), ref.kind());
    }
  }

  private static final class Building {
    final ThreadDump dump;
    final Map<Long, Node> nodes = new LinkedHashMap<>();
    final List<WaitEdge> edges = new ArrayList<>();
    final Map<Key, Long> monitorHolders = new HashMap<>();
    final Map<Key, Long> lockOwners = new HashMap<>();
    final Map<String, Long> initialising = new HashMap<>();
    final Set<Long> mounted = new HashSet<>();
    final Map<Long, Resource.MonitorEntry> entering;
    final boolean enteringPins;

    Building(ThreadDump dump, Map<Long, Resource.MonitorEntry> entering, boolean enteringPins) {
      this.dump = dump;
      this.entering = entering;
      this.enteringPins = enteringPins;
    }

    WaitGraph build(SchedulerLimits limits) {
      mounted.addAll(CarrierHolding.mounted(dump));
      List<Long> holders = new ArrayList<>();
      boolean compensated = false;
      for (DumpedThread t : dump.threads()) {
        boolean holds = holdsCarrier(t);
        if (holds) {
          holders.add(t.tid());
          compensated |= CarrierHolding.inObjectWait(t);
        }
        nodes.put(
            t.tid(),
            new Node(
                t.tid(),
                t.name(),
                t.isVirtual() || notStarted(t) ? Node.Kind.VIRTUAL : Node.Kind.PLATFORM,
                at(t),
                holds,
                null));
        indexHeld(t);
      }
      for (DumpedThread t : dump.threads()) {
        waits(t);
      }
      vmDeadlocks();
      int seen = carriersSeen();
      int capacity = limits.parallelism() > 0 ? limits.parallelism() : seen;
      if (compensated && seen > capacity) {
        // the scheduler started a carrier for each thread pinned in Object.wait(), up to its
        // maximum pool size: the carriers are all those the dump shows
        capacity = seen;
      }
      List<Long> need = new ArrayList<>();
      if (capacity > 0 && holders.size() >= capacity) {
        need = starved(holders, capacity);
      }
      return new WaitGraph(nodes, edges, capacity, holders, need, seen, limits.maxPoolSize());
    }

    private void indexHeld(DumpedThread t) {
      ObjectRef waitedOn = t.blocker() instanceof Blocker.MonitorWait w ? w.lock() : null;
      for (var held : t.monitors()) {
        Key k = Key.of(held.lock());
        // a thread in Object.wait() is listed as holding what it waits on (JDK-8361926)
        if (k != null && !k.equals(Key.of(waitedOn))) {
          monitorHolders.put(k, t.tid());
        }
      }
      for (ObjectRef lock : t.ownableSynchronizers()) {
        Key k = Key.of(lock);
        if (k != null) {
          lockOwners.put(k, t.tid());
        }
      }
      for (Frame f : t.frames()) {
        if (f.method().equals("<clinit>")) {
          initialising.putIfAbsent(f.className(), t.tid());
        }
      }
    }

    private void waits(DumpedThread t) {
      long tid = t.tid();
      // instanceof, not a pattern switch: the switch's bootstrap class would load at start-up
      Blocker b = t.blocker();
      if (b instanceof Blocker.MonitorEnter m) {
        add(tid, new Resource.Monitor(m.lock()), monitorHolders.get(Key.of(m.lock())));
      } else if (b instanceof Blocker.Parked p && isOwnable(p.blocker())) {
        Long owner = p.owner() >= 0 ? Long.valueOf(p.owner()) : lockOwners.get(Key.of(p.blocker()));
        add(tid, new Resource.OwnableLock(p.blocker()), owner);
      } else if (b instanceof Blocker.Parked p) {
        release(t, p.blocker());
      } else if (b instanceof Blocker.MonitorWait w) {
        release(t, w.lock());
      } else if (b instanceof Blocker.ClassInit c) {
        add(tid, new Resource.ClassInit(c.className()), initialising.get(c.className()));
      } else if (b == null && entering.containsKey(tid)) {
        edges.add(new WaitEdge(tid, entering.get(tid), WaitEdge.NO_HOLDER, Evidence.INFERRED));
      } else {
        fromStack(t);
      }
    }

    /** A wait only the stack tells: JDK 21's JSON, a virtual thread in {@code Thread.print}. */
    private void fromStack(DumpedThread t) {
      List<Frame> frames = t.frames();
      if (!parked(frames)) {
        return;
      }
      for (Frame f : frames) {
        if (isOwnableLockCall(f)) {
          add(
              t.tid(),
              new Resource.OwnableLock(
                  new ObjectRef(f.className(), null, ObjectRef.IdKind.IDENTITY)),
              null);
          return;
        }
      }
      release(t, null);
    }

    private static boolean parked(List<Frame> frames) {
      for (Frame f : frames) {
        if (f.isApplicationFrame()) {
          return false;
        }
        String m = f.method();
        if (m.startsWith("sleep")) {
          return false;
        }
        if (m.startsWith("park") || m.equals("wait0") || m.equals("wait")) {
          return true;
        }
      }
      return false;
    }

    /** A wait for a release no one holds: the edge names the method the application called. */
    private void release(DumpedThread t, ObjectRef blocker) {
      Frame entry = entry(t.frames());
      String what =
          entry != null
              ? entry.className() + "." + entry.method()
              : blocker != null ? blocker.className() : "";
      edges.add(
          new WaitEdge(
              t.tid(),
              new Resource.Release(what, blocker),
              WaitEdge.NO_HOLDER,
              Evidence.UNKNOWN_HOLDER));
    }

    private void add(long waiter, Resource resource, Long holder) {
      if (holder != null && holder != waiter) {
        edges.add(new WaitEdge(waiter, resource, holder, Evidence.STATED));
      } else {
        edges.add(new WaitEdge(waiter, resource, WaitEdge.NO_HOLDER, Evidence.UNKNOWN_HOLDER));
      }
    }

    /**
     * The JVM's own deadlock sections: platform threads, named, each {@code which is held by "B"}.
     * They name holders when the dump's own lock ids cannot be joined (a JSON dump's waits, a
     * {@code Thread.print}'s owners).
     */
    private void vmDeadlocks() {
      Map<String, Long> byName = new HashMap<>();
      for (DumpedThread t : dump.threads()) {
        byName.putIfAbsent(t.name(), t.tid());
      }
      for (VmDeadlock d : dump.vmDeadlocks()) {
        for (int i = 0; i < d.threadNames().size() && i < d.waits().size(); i++) {
          Long waiter = byName.get(d.threadNames().get(i));
          Matcher m = HELD_BY.matcher(d.waits().get(i));
          Long holder = m.find() ? byName.get(m.group(1)) : null;
          if (waiter == null || holder == null) {
            continue;
          }
          for (int e = 0; e < edges.size(); e++) {
            WaitEdge edge = edges.get(e);
            if (edge.waiter() == waiter && !edge.hasHolder()) {
              edges.set(e, new WaitEdge(waiter, edge.resource(), holder, Evidence.STATED));
            }
          }
        }
      }
    }

    /**
     * With every carrier held: who needs one to go on, and edges from them to the carriers and from
     * the carriers to their holders; a lock that a holder waits for and no platform thread owns is
     * owned by a virtual thread not mounted (every mounted one holds its carrier blocked), which
     * needs a carrier too.
     */
    private List<Long> starved(List<Long> holders, int capacity) {
      List<Long> need = new ArrayList<>();
      for (DumpedThread t : dump.threads()) {
        if (needsCarrier(t)) {
          need.add(t.tid());
        }
      }
      Set<Long> holding = new HashSet<>(holders);
      Map<Key, Long> standIns = new HashMap<>();
      Resource carriers = new Resource.Carriers(capacity);
      for (int e = 0; e < edges.size(); e++) {
        WaitEdge edge = edges.get(e);
        if (edge.hasHolder()
            || !holding.contains(edge.waiter())
            || !(edge.resource() instanceof Resource.OwnableLock lock)) {
          continue;
        }
        Key k = Key.of(lock.lock());
        Key key = k != null ? k : new Key(lock.lock().className(), null);
        Long standIn = standIns.get(key);
        if (standIn == null) {
          standIn = CARRIERS - 1 - standIns.size();
          standIns.put(key, standIn);
          nodes.put(
              standIn, new Node(standIn, "", Node.Kind.UNNAMED_OWNER, null, false, lock.lock()));
          edges.add(new WaitEdge(standIn, carriers, CARRIERS, Evidence.INFERRED));
        }
        // -l read, and no platform thread owns it: a virtual thread does; without -l, probably
        Evidence how = dump.facts().lockOwnersGiven() ? Evidence.INFERRED : Evidence.UNKNOWN_HOLDER;
        edges.set(e, new WaitEdge(edge.waiter(), edge.resource(), standIn, how));
      }
      nodes.put(CARRIERS, new Node(CARRIERS, "", Node.Kind.CARRIERS, null, false, null));
      for (long n : need) {
        edges.add(new WaitEdge(n, carriers, CARRIERS, Evidence.INFERRED));
      }
      Evidence held = dump.facts().statesGiven() ? Evidence.STATED : Evidence.INFERRED;
      for (long h : holders) {
        edges.add(new WaitEdge(CARRIERS, carriers, h, held));
      }
      return need;
    }

    /** Holds its carrier while blocked, by {@link CarrierHolding}'s rule. */
    private boolean holdsCarrier(DumpedThread t) {
      return CarrierHolding.holdsCarrier(t, mounted, enteringPins && entering.containsKey(t.tid()));
    }

    /**
     * A virtual thread not mounted that goes on as soon as it has a carrier: not started yet,
     * runnable, sleeping, or in a timed wait (its time may be up).
     */
    private boolean needsCarrier(DumpedThread t) {
      if (mounted.contains(t.tid()) || !(t.isVirtual() || notStarted(t))) {
        return false;
      }
      if (t.frames().isEmpty() || "RUNNABLE".equals(t.state())) {
        return true;
      }
      for (Frame f : t.frames()) {
        if (f.className().equals("java.lang.VirtualThread")
            && (f.method().equals("sleepNanos") || f.method().equals("parkNanos"))) {
          return true;
        }
      }
      return false;
    }

    /**
     * A virtual thread that has not run: JDK 21's JSON marks no thread virtual, and lists such a
     * thread with no frames; one that {@code Thread.print}, which lists every platform thread, does
     * not list is not a platform thread.
     */
    private boolean notStarted(DumpedThread t) {
      if (t.kind() == ThreadKind.VIRTUAL) {
        return t.frames().isEmpty() && t.carrier() < 0 && t.stack() != null;
      }
      return t.kind() == ThreadKind.UNKNOWN
          && t.stack() != null
          && t.frames().isEmpty()
          && dump.facts().carriersGiven();
    }

    /** The carriers the dump shows: the workers of each pool whose worker carries a thread. */
    private int carriersSeen() {
      Set<String> pools = new HashSet<>();
      Map<Long, DumpedThread> byTid = new HashMap<>();
      for (DumpedThread t : dump.threads()) {
        byTid.put(t.tid(), t);
      }
      for (DumpedThread t : dump.threads()) {
        DumpedThread carrier = t.isCarrier() ? t : t.carrier() >= 0 ? byTid.get(t.carrier()) : null;
        if (carrier != null && carrier.name().contains(POOL_WORKER)) {
          pools.add(carrier.name().substring(0, carrier.name().lastIndexOf(POOL_WORKER)));
        }
      }
      if (pools.isEmpty()) {
        return schedulerContainer();
      }
      int count = 0;
      for (DumpedThread t : dump.threads()) {
        int w = t.name().lastIndexOf(POOL_WORKER);
        if (w > 0 && pools.contains(t.name().substring(0, w)) && !t.isVirtual()) {
          count++;
        }
      }
      return count;
    }

    /**
     * The threads of the one container of a pool other than the common pool, which JDK 21's JSON
     * lists its workers in without saying what they carry: the scheduler's, when it is the only
     * one.
     */
    private int schedulerContainer() {
      ThreadContainer found = null;
      for (ThreadContainer c : dump.containers()) {
        if (c.name().startsWith("ForkJoinPool-")) {
          if (found != null) {
            return 0;
          }
          found = c;
        }
      }
      if (found == null) {
        return 0;
      }
      int count = 0;
      for (DumpedThread t : dump.threads()) {
        if (found.name().equals(t.container()) && !t.isVirtual()) {
          count++;
        }
      }
      return count;
    }

    private static Frame at(DumpedThread t) {
      if (t.stack() == null) {
        return null;
      }
      Frame app = t.stack().topApplicationFrame();
      return app != null ? app : t.stack().topFrame();
    }

    /** The JDK method the application called to wait: the frame below which its own code runs. */
    private static Frame entry(List<Frame> frames) {
      Frame last = null;
      for (Frame f : frames) {
        if (f.isApplicationFrame() || f.method().equals("<clinit>")) {
          return last;
        }
        last = f;
      }
      return null;
    }
  }
}
