package dev.vtscope.workloads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The carrier-starvation deadlock of JDK 21–23: virtual thread {@code lock-owner} takes a {@link
 * ReentrantLock} and waits, unmounted, for a reply; more virtual threads than there are carriers
 * ({@code waiter-N}) enter a monitor of their own and then want the lock. Each parks inside {@code
 * synchronized}, so it parks pinned: every carrier is held by a waiter, and when the reply comes
 * the owner can never get a carrier back to unlock. No JVM deadlock detector sees it, and no pinned
 * event is written (a pin that never ends writes none).
 *
 * <p>The number of waiters is sized to the carriers ({@code
 * jdk.virtualThreadScheduler.parallelism}, else the CPUs), two more than there are, so the deadlock
 * happens on any machine.
 *
 * <p>Variants: {@code synchronized}, and its fixed twin {@code reentrant-lock} (each waiter's own
 * guard is a {@link ReentrantLock}, so it unmounts while it waits). The workload says {@code
 * ready:} once every waiter that can has queued for the lock (on JDK 21–23 with {@code
 * synchronized}: one a carrier), then the reply comes after {@code --hold}; on JDK 21–23 {@code
 * synchronized} hangs from there until stopped, everything else finishes.
 *
 * <p>Events and finding: on JDK 21–23, no pinned event until the JVM stops; {@code Thread.print}
 * shows each carrier "Carrying virtual thread" of a waiter, whose JSON stack parks in {@code
 * VirtualThread.parkOnCarrierThread} under {@link #waitInMonitor}; the owner is unmounted, the
 * waiters that found no carrier never started (empty stacks). On JDK 24+ (JEP 491) the waiters
 * unmount: with a long {@code --hold}, JDK 25's JSON dump shows them {@code WAITING}, each with its
 * monitor in {@code monitorsOwned} and the lock as its park blocker, and no carrier held.
 */
public final class CarrierStarvation implements Workload {

  /** The JDK release from which a virtual thread blocked in {@code synchronized} unmounts. */
  private static final int MONITORS_UNMOUNT_FROM = 24;

  private static final ReentrantLock LOCK = new ReentrantLock();

  @Override
  public String name() {
    return "carrier-starvation";
  }

  @Override
  public String description() {
    return "every carrier pinned by virtual threads in synchronized that wait for a lock whose"
        + " owner, unmounted, can never run again: a deadlock no JVM detector reports";
  }

  @Override
  public String effectJdks() {
    return "21-23";
  }

  @Override
  public int effectGoneFrom() {
    return MONITORS_UNMOUNT_FROM;
  }

  @Override
  public String expectedFinding() {
    return "no pinned event; a thread dump shows every carrier pinned by a waiter for the lock an"
        + " unmounted virtual thread holds";
  }

  @Override
  public List<String> variants() {
    return List.of("synchronized", "reentrant-lock");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int carriers = Hang.carriers();
    int waiters = args.integer("waiters", carriers + 2);
    Duration hold = args.duration("hold");
    boolean monitor = args.variant().equals("synchronized");
    long start = System.nanoTime();
    CompletableFuture<Void> reply = new CompletableFuture<>();
    Thread owner =
        Thread.ofVirtual()
            .name("lock-owner")
            .start(
                () -> {
                  LOCK.lock();
                  try {
                    reply.join(); // a remote call, say: the thread unmounts while it waits
                  } finally {
                    LOCK.unlock();
                  }
                });
    Hang.until(LOCK::isLocked);
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < waiters; i++) {
      Runnable waiter = monitor ? () -> waitInMonitor(new Object()) : () -> waitInLock();
      started.add(Thread.ofVirtual().name("waiter-" + i).start(waiter));
    }
    boolean pinning = monitor && Runtime.version().feature() < MONITORS_UNMOUNT_FROM;
    // a waiter pinned in its park holds a carrier: only as many as there are carriers can queue
    int queued = pinning ? Math.min(waiters, carriers) : waiters;
    Hang.until(() -> LOCK.getQueueLength() >= queued);
    Hang.ready(
        queued
            + " of "
            + waiters
            + " waiters queued for the lock lock-owner holds"
            + (pinning && waiters >= carriers
                ? ", every carrier pinned by one: lock-owner cannot run again"
                : ", no carrier held"));
    Thread.sleep(hold);
    reply.complete(null);
    owner.join();
    for (Thread t : started) {
      t.join();
    }
    return new WorkloadResult(name(), args.variant())
        .figure("waiters", waiters)
        .figure("carriers", carriers)
        .figure("deadlocked", false)
        .figure("wallMillis", Math.round((System.nanoTime() - start) / 1e5) / 10.0);
  }

  /** A waiter of {@code synchronized}: parks for the lock inside its own monitor. */
  private static void waitInMonitor(Object guard) {
    synchronized (guard) {
      LOCK.lock();
      LOCK.unlock();
    }
  }

  /** The fixed twin's waiter: its own guard is a lock, which a virtual thread unmounts from. */
  private static void waitInLock() {
    ReentrantLock guard = new ReentrantLock();
    guard.lock();
    try {
      LOCK.lock();
      LOCK.unlock();
    } finally {
      guard.unlock();
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        List.of(21, 25),
        "",
        "reentrant-lock",
        "`carrier-starvation` / `--variant reentrant-lock`",
        "on JDK 21–23 virtual threads that block inside `synchronized` pin their carriers; when"
            + " they wait for a lock an unmounted virtual thread holds, the owner may never run"
            + " again (JEP 491)",
        "JDK 21, 2 carriers: 2 of 4 waiters queued, both carriers pinned, hung until stopped,"
            + " no pinned event; `reentrant-lock` and JDK 25 finish at once");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count(
            "waiters",
            null,
            "virtual threads that want the lock inside a monitor (default: the carriers + 2,"
                + " jdk.virtualThreadScheduler.parallelism or the CPUs)"),
        WorkloadOption.duration(
            "hold", "0ms", "how long lock-owner waits for its reply once the waiters queued"));
  }
}
