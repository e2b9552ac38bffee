package dev.vtscope.threaddump;

/** What a dumped thread waits for, as the dump states it. */
public sealed interface Blocker {

  /** Blocked entering a monitor: JSON {@code blockedOn}, {@code - waiting to lock <…>}. */
  record MonitorEnter(ObjectRef lock) implements Blocker {}

  /** In {@code Object.wait()}: JSON {@code waitingOn}, {@code - waiting on <…>}. */
  record MonitorWait(ObjectRef lock) implements Blocker {}

  /**
   * Parked: JSON {@code parkBlocker}, {@code - parking to wait for <…>}.
   *
   * @param owner the id of the thread that owns the blocker (JSON {@code parkBlocker.owner}, JDK
   *     26+), or -1 when not said
   */
  record Parked(ObjectRef blocker, long owner) implements Blocker {}

  /**
   * Waiting for another thread to initialise a class: {@code - waiting on the Class initialization
   * monitor for CLASS}, which only {@code Thread.print} prints (the JSON shows such a thread {@code
   * RUNNABLE}).
   */
  record ClassInit(String className) implements Blocker {}
}
