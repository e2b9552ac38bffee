package dev.vtscope.waits;

import dev.vtscope.threaddump.ObjectRef;

/**
 * One edge of a {@link WaitGraph}: a thread (or the scheduler's carriers) waits for a resource that
 * another holds.
 *
 * @param waiter the waiting node's id: a thread id, {@link WaitGraph#CARRIERS}, or a stand-in for
 *     an owner the dump does not name ({@link WaitGraph.Node#standIn})
 * @param resource what it waits for
 * @param holder the holding node's id, or {@link #NO_HOLDER} when the dump names none
 * @param evidence how the edge is known
 */
public record WaitEdge(long waiter, Resource resource, long holder, Evidence evidence) {

  /** The holder of an edge whose holder no dump names. */
  public static final long NO_HOLDER = Long.MIN_VALUE;

  /** Whether the edge names its holder. */
  public boolean hasHolder() {
    return holder != NO_HOLDER;
  }

  /** How an edge is known; the constants run from strongest to weakest. */
  public enum Evidence {
    /** The dump states both ends: a lock held and waited for, a class being initialised. */
    STATED,
    /**
     * Read from what the dump does not say: a {@code java.util.concurrent} lock no platform thread
     * owns is owned by a virtual thread, which needs a carrier to release it.
     */
    INFERRED,
    /** The waiter is stated, its holder is not: no dump of JDK 25 or earlier names it. */
    UNKNOWN_HOLDER;

    /** The weaker of the two. */
    public Evidence weaker(Evidence other) {
      return compareTo(other) >= 0 ? this : other;
    }
  }

  /** What is waited for. */
  public sealed interface Resource {

    /** A monitor: {@code synchronized}. */
    record Monitor(ObjectRef lock) implements Resource {}

    /**
     * A monitor that a virtual thread is inferred to wait to enter: JDK 21–23 dumps name neither
     * the monitor nor its holder, and a series of them shows the thread standing still at a line
     * that enters one ({@link Deadlocks#find(java.util.List, int,
     * dev.vtscope.attribution.Attributor)}).
     *
     * @param where the frame on the line that enters it, and the one that holds a monitor already
     */
    record MonitorEntry(dev.vtscope.attribution.Attributor.MonitorEntry where) implements Resource {

      /** The frame on the line that enters the monitor. */
      public dev.vtscope.recording.Frame at() {
        return where.entering();
      }

      /** The frame that holds a monitor already, or null when none does. */
      public dev.vtscope.recording.Frame holding() {
        return where.holding();
      }
    }

    /** An ownable {@code java.util.concurrent} lock: {@code ReentrantLock}, a write lock. */
    record OwnableLock(ObjectRef lock) implements Resource {}

    /** A class's initialisation, which another thread runs. */
    record ClassInit(String className) implements Resource {}

    /**
     * A carrier of the virtual-thread scheduler, every one of which is held.
     *
     * @param capacity the scheduler's carriers
     */
    record Carriers(int capacity) implements Resource {}

    /**
     * Something no thread holds as such, released by whoever calls it: a latch, a semaphore, a
     * condition, a joined thread's end. Its edges have no holder.
     *
     * @param what the blocker's class ({@code java.util.concurrent.CountDownLatch$Sync}), or the
     *     method waited in ({@code java.lang.Thread.join}) when the dump names no blocker
     * @param object the blocker, when the dump names it, or null
     */
    record Release(String what, ObjectRef object) implements Resource {}
  }
}
