package dev.vtscope.workloads;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock-order deadlock: thread {@code holds-a-wants-b} takes lock A and then wants B, thread
 * {@code holds-b-wants-a} the other way round, and each waits for ever for the lock the other
 * holds. Both take their first lock before either asks for its second, so the cycle always forms.
 *
 * <p>Variants: {@code monitor} (two virtual threads, {@code synchronized}), {@code reentrant-lock}
 * (two virtual threads, {@link ReentrantLock}s), {@code platform-monitor} (two platform threads,
 * {@code synchronized}: the control, the one case the JVM's own deadlock detector reports), and the
 * fixed twin {@code ordered} (two virtual threads take A before B, finish, and the workload ends).
 * The deadlocked variants say {@code ready:} once both threads wait for their second lock, and hang
 * until stopped.
 *
 * <p>Events and finding: no pinned event ({@code monitor} on JDK 21–23 holds both carriers while
 * blocked, and a pin that never ends writes none). What shows the cycle is a thread dump: {@code
 * Thread.print} prints "Found one Java-level deadlock" for {@code platform-monitor} only; for
 * {@code monitor}, JDK 25's JSON dump gives each virtual thread's {@code blockedOn} and {@code
 * monitorsOwned}, JDK 21's shows the two mounted on the carriers ({@code Thread.print}'s "Carrying
 * virtual thread") with their stacks; for {@code reentrant-lock} both are parked, unmounted, their
 * park blocker the other's lock (JDK 25), and no dump before JDK 26 names its owner. JDK range:
 * 21+.
 */
public final class LockOrderDeadlock implements Workload {

  @Override
  public String name() {
    return "deadlock";
  }

  @Override
  public String description() {
    return "two threads take two locks in opposite order and wait for each other for ever: the"
        + " JVM reports the cycle for platform threads only";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "no pinned event; a thread dump shows each virtual thread waiting for the monitor the"
        + " other holds";
  }

  @Override
  public List<String> variants() {
    return List.of("monitor", "reentrant-lock", "platform-monitor", "ordered");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    String variant = args.variant();
    long start = System.nanoTime();
    if (variant.equals("reentrant-lock")) {
      ReentrantLock a = new ReentrantLock();
      ReentrantLock b = new ReentrantLock();
      CountDownLatch bothHoldOne = new CountDownLatch(2);
      Thread ab =
          Thread.ofVirtual().name("holds-a-wants-b").start(() -> withLocks(a, b, bothHoldOne));
      Thread ba =
          Thread.ofVirtual().name("holds-b-wants-a").start(() -> withLocks(b, a, bothHoldOne));
      Hang.until(() -> b.hasQueuedThread(ab) && a.hasQueuedThread(ba));
      Hang.ready(
          "holds-a-wants-b and holds-b-wants-a each wait for the ReentrantLock the other holds");
      return Hang.forever();
    }
    Object a = new Object();
    Object b = new Object();
    boolean ordered = variant.equals("ordered");
    // ordered: nobody waits for the other to hold one, since the second could never take its first
    CountDownLatch bothHoldOne = new CountDownLatch(ordered ? 0 : 2);
    Thread.Builder builder =
        variant.equals("platform-monitor") ? Thread.ofPlatform().daemon() : Thread.ofVirtual();
    Thread ab = builder.name("holds-a-wants-b").start(() -> withMonitors(a, b, bothHoldOne));
    Thread ba =
        builder
            .name(ordered ? "holds-a-wants-b-too" : "holds-b-wants-a")
            .start(() -> withMonitors(ordered ? a : b, ordered ? b : a, bothHoldOne));
    if (ordered) {
      ab.join();
      ba.join();
      return new WorkloadResult(name(), variant)
          .figure("threads", 2)
          .figure("deadlocked", false)
          .figure("wallMillis", Math.round((System.nanoTime() - start) / 1e5) / 10.0);
    }
    Hang.until(
        () -> ab.getState() == Thread.State.BLOCKED && ba.getState() == Thread.State.BLOCKED);
    Hang.ready("holds-a-wants-b and holds-b-wants-a each wait for the monitor the other holds");
    return Hang.forever();
  }

  /** Takes {@code first}, waits until the other thread holds its own, then takes {@code second}. */
  private static void withMonitors(Object first, Object second, CountDownLatch bothHoldOne) {
    synchronized (first) {
      rendezvous(bothHoldOne);
      synchronized (second) {
        bothHoldOne.getCount(); // the work both locks guard
      }
    }
  }

  /** The same with {@link ReentrantLock}s. */
  private static void withLocks(
      ReentrantLock first, ReentrantLock second, CountDownLatch bothHoldOne) {
    first.lock();
    try {
      rendezvous(bothHoldOne);
      second.lock();
      second.unlock();
    } finally {
      first.unlock();
    }
  }

  private static void rendezvous(CountDownLatch bothHoldOne) {
    bothHoldOne.countDown();
    try {
      bothHoldOne.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        List.of(25, 21),
        "",
        "ordered",
        "`deadlock` / `--variant reentrant-lock` / `--variant platform-monitor` / `--variant ordered`",
        "the JVM's deadlock detection (`Thread.print`'s \"Found one Java-level deadlock\","
            + " `ThreadMXBean.findDeadlockedThreads`) covers platform threads only",
        "JDK 21 and 25: \"Found one Java-level deadlock\" for `platform-monitor` only; `monitor` on"
            + " JDK 25: both virtual threads BLOCKED, unmounted, each `blockedOn` the monitor in the"
            + " other's `monitorsOwned`; on JDK 21 both mounted on the 2 carriers, their stacks alone"
            + " in the JSON; `ordered` ends at once");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of();
  }
}
