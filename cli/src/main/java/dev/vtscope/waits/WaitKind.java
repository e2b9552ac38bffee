package dev.vtscope.waits;

/** What a dumped thread waits for, by kind: the first part of a {@link WaitKey}. */
public enum WaitKind {
  MONITOR_ENTER("monitor-enter"),
  MONITOR_WAIT("monitor-wait"),
  /** A {@code java.util.concurrent} lock: {@code ReentrantLock}, a read-write lock. */
  LOCK("lock"),
  /** {@code Condition.await} called by the application itself. */
  CONDITION("condition"),
  /** {@code Semaphore}, {@code CountDownLatch}, {@code CyclicBarrier}, {@code Phaser}. */
  SYNCHRONIZER("synchronizer"),
  /** A task's result: {@code Future.get}, {@code CompletableFuture.join}. */
  FUTURE("future"),
  /** A blocking queue's {@code take}, {@code put}, {@code poll}. */
  QUEUE("queue"),
  SLEEP("sleep"),
  /** Reading, accepting, connecting or writing a socket. */
  SOCKET_IO("socket-io"),
  /** Another thread initialises a class ({@code Thread.print} only says it). */
  CLASS_INIT("class-init"),
  /** {@code Thread.join}, a structured scope's {@code join}. */
  JOIN("join"),
  /** A virtual thread started but never run: it has no frames yet. */
  NOT_STARTED("not-started"),
  /** A pool's or JDK service thread's worker waiting for work: nothing to do. */
  IDLE_WORKER("idle-worker"),
  /** In a native method, or a thread with no Java frames (the JVM's own). */
  NATIVE("native"),
  /** A carrier running a virtual thread: its own frames end in {@code Continuation.run}. */
  CARRYING("carrying"),
  /** Running Java code, as far as the dump tells. */
  RUNNING("running"),
  /** Parked for a reason no frame or field names. */
  PARKED("parked");

  private final String id;

  WaitKind(String id) {
    this.id = id;
  }

  /** Its name in the JSON report. */
  public String id() {
    return id;
  }

  /** Whether threads of this kind are busy or idle rather than waiting for the application. */
  public boolean idle() {
    return this == IDLE_WORKER || this == NOT_STARTED;
  }
}
