package dev.vtscope.workloads;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shared-lock pinning: many virtual threads take one shared lock and sleep inside it.
 *
 * <p>Variants: {@code synchronized} (a {@code synchronized} block), {@code synchronized-method}
 * (the same monitor taken by a {@code synchronized} method), {@code reentrant-lock} (the fixed
 * twin) and {@code none} (no lock at all).
 *
 * <p>Events and finding: on JDK 21–23 the {@code synchronized} variant pins a carrier for every
 * sleep ({@code jdk.VirtualThreadPinned}, culprit: the synchronized block in {@link #withMonitor})
 * and the waiting threads show as {@code jdk.JavaMonitorEnter}. On JDK 24+ monitors no longer pin:
 * no pinned events. The {@code reentrant-lock} variant pins on no JDK.
 *
 * <p>Throughput is bounded by the lock, not by the threads: one lock held across a sleep of S lets
 * at most 1/S tasks through per second, whatever kind of lock it is.
 */
public final class SharedLockPinning implements Workload {

  private final Object monitor = new Object();
  private final ReentrantLock lock = new ReentrantLock();

  @Override
  public String name() {
    return "pinning";
  }

  @Override
  public String description() {
    return "virtual threads sleep while holding one shared lock (synchronized vs ReentrantLock vs none)";
  }

  @Override
  public String effectJdks() {
    return "21-23";
  }

  @Override
  public int effectGoneFrom() {
    return 24;
  }

  @Override
  public String expectedFinding() {
    return "SYNCHRONIZED_BLOCK culprit (withMonitor) and monitor enters; none on 24+";
  }

  @Override
  public List<String> variants() {
    return List.of("synchronized", "synchronized-method", "reentrant-lock", "none");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    Duration hold = args.duration("hold");
    String variant = args.variant();
    Runnable task =
        switch (variant) {
          case "synchronized" -> () -> withMonitor(hold);
          case "synchronized-method" -> () -> withSynchronizedMethod(hold);
          case "reentrant-lock" -> () -> withLock(hold);
          case "none" -> () -> sleep(hold);
          default -> throw new IllegalArgumentException("unknown variant '" + variant + "'");
        };
    long start = System.nanoTime();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < tasks; i++) {
        executor.submit(task);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new WorkloadResult(name(), variant)
        .figure("tasks", tasks)
        .figure("holdMillis", hold.toMillis())
        .figure("wallSeconds", Math.round(seconds * 1000) / 1000.0)
        .figure("tasksPerSecond", Math.round(tasks / seconds * 10) / 10.0)
        .figure(
            "lockBoundTasksPerSecond",
            variant.equals("none") ? "no lock" : 1000.0 / hold.toMillis())
        .claim("780 (synchronized) / 8,500 (ReentrantLock) / 92,000 (no lock) tasks/s on 8 cores");
  }

  private void withMonitor(Duration hold) {
    synchronized (monitor) {
      sleep(hold);
    }
  }

  private synchronized void withSynchronizedMethod(Duration hold) {
    sleep(hold);
  }

  private void withLock(Duration hold) {
    lock.lock();
    try {
      sleep(hold);
    } finally {
      lock.unlock();
    }
  }

  private static void sleep(Duration hold) {
    try {
      Thread.sleep(hold);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(21, 25),
        "--variant synchronized --tasks 200",
        "reentrant-lock",
        "`pinning --variant synchronized` / `reentrant-lock`, `--tasks 200`",
        "780 / 8,500 / 92,000 tasks/s on 8 cores",
        "~95 tasks/s for `synchronized` **and** `ReentrantLock` on JDK 21 and 25. One lock held across a 10 ms sleep lets at most 1 / 0.010 s = 100 tasks/s through, whatever the lock: the claim cannot be right as written. On JDK 21, `synchronized` pins on every sleep (200 pins at threshold 0); on JDK 25 it does not pin.");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "1000", "virtual threads that take the lock"),
        WorkloadOption.duration("hold", "10ms", "how long each sleeps holding it"));
  }
}
