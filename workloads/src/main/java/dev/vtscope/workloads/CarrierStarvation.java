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
 * <p>The waiters are sized to the carriers ({@code jdk.virtualThreadScheduler.parallelism}, else
 * the CPUs), two more. Variants: {@code synchronized}, its fixed twin {@code reentrant-lock} (each
 * waiter's guard a {@link ReentrantLock}, which it unmounts from), and {@code object-wait} (the
 * hang at the pool's maximum: {@link #atPoolMax}). It says {@code ready:} once every waiter that
 * can has queued (JDK 21–23 {@code synchronized}: one a carrier), the reply comes after {@code
 * --hold}; on JDK 21–23 {@code synchronized} hangs until stopped, everything else finishes.
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
    return List.of("synchronized", "reentrant-lock", "object-wait");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    if (args.variant().equals("object-wait")) {
      return atPoolMax(args);
    }
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
                + " jdk.virtualThreadScheduler.parallelism or the CPUs; object-wait: the"
                + " waiters for permits, maxPoolSize + 2)"),
        WorkloadOption.duration(
            "hold",
            "0ms",
            "how long lock-owner waits for its reply once the waiters queued (object-wait:"
                + " how long notifier sleeps before it hands out permits)"));
  }

  /**
   * The {@code object-wait} variant: the JDK 21–23 hang at the scheduler's maximum pool size. A
   * virtual thread in {@code Object.wait()} inside {@code synchronized} pins its carrier, and the
   * scheduler makes up for it with another carrier, up to {@code
   * jdk.virtualThreadScheduler.maxPoolSize} (default max(parallelism, 256)). Virtual thread {@code
   * notifier} sleeps until the waiters wait; more of them ({@code waiter-N}, the maximum + 2) than
   * the pool may have carriers wait in {@link Permits#acquire}, a permit count guarded by {@code
   * synchronized} and {@code wait}/{@code notifyAll} (as Quartz's {@code SimpleSemaphore} is). Once
   * every carrier up to the maximum is pinned by a waiter, the notifier's sleep ends with no
   * carrier to run on: it never hands out the permit, and the JVM hangs until stopped.
   *
   * <p>Run it with a small pool so that the maximum is reached at once, e.g. {@code
   * -Djdk.virtualThreadScheduler.parallelism=2 -Djdk.virtualThreadScheduler.maxPoolSize=4}. Says
   * {@code ready:} once the waiters that can wait (on JDK 21–23 one a carrier, up to the maximum),
   * then the notifier releases them after {@code --hold}.
   *
   * <p>Events and finding: on JDK 21–23 no pinned event until the JVM stops; the dumps show every
   * carrier (the maximum of them) carrying a waiter with {@code Object.wait0} on top under {@link
   * Permits#acquire}, the notifier unmounted in its sleep, the waiters that found no carrier not
   * started. On JDK 24+ {@code Object.wait()} unmounts: with a long {@code --hold} the waiters are
   * seen {@code WAITING}, unmounted, and no carrier held; then everything finishes.
   */
  private static WorkloadResult atPoolMax(WorkloadArgs args) throws Exception {
    int carriers = Hang.carriers();
    int maxPool =
        Integer.getInteger("jdk.virtualThreadScheduler.maxPoolSize", Math.max(carriers, 256));
    int waiters = args.integer("waiters", maxPool + 2);
    Duration hold = args.duration("hold");
    long start = System.nanoTime();
    Permits permits = new Permits();
    java.util.concurrent.atomic.AtomicBoolean queued =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread notifier =
        Thread.ofVirtual()
            .name("notifier")
            .start(
                () -> {
                  try {
                    // asleep, unmounted, while the waiters take the carriers; each wake-up needs
                    // one
                    while (!queued.get()) {
                      Thread.sleep(10);
                    }
                    Thread.sleep(hold);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  }
                  permits.release(waiters);
                });
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < waiters; i++) {
      started.add(Thread.ofVirtual().name("waiter-" + i).start(permits::acquire));
    }
    boolean pinning = Runtime.version().feature() < MONITORS_UNMOUNT_FROM;
    // a waiter pinned in Object.wait holds a carrier: only as many as the pool may have can wait
    int waiting = pinning ? Math.min(waiters, maxPool) : waiters;
    Hang.until(() -> permits.waiting() >= waiting);
    queued.set(true);
    Hang.ready(
        waiting
            + " of "
            + waiters
            + " waiters wait in Object.wait for permits notifier hands out"
            + (!pinning
                ? ", no carrier held"
                : waiters >= maxPool
                    ? ", every carrier up to maxPoolSize "
                        + maxPool
                        + " pinned by one: notifier cannot run again"
                    : ", each pinning a carrier the scheduler made up for"));
    notifier.join();
    for (Thread t : started) {
      t.join();
    }
    return new WorkloadResult("carrier-starvation", args.variant())
        .figure("waiters", waiters)
        .figure("carriers", carriers)
        .figure("maxPoolSize", maxPool)
        .figure("deadlocked", false)
        .figure("wallMillis", Math.round((System.nanoTime() - start) / 1e5) / 10.0);
  }

  /** Permits guarded by {@code synchronized} and {@code wait}/{@code notifyAll}. */
  private static final class Permits {
    private int available;
    private int waiting;

    synchronized void acquire() {
      waiting++;
      try {
        while (available == 0) {
          wait();
        }
        available--;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        waiting--;
      }
    }

    synchronized void release(int n) {
      available += n;
      notifyAll();
    }

    synchronized int waiting() {
      return waiting;
    }
  }
}
