package dev.vtscope.workloads;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Per-task monitor: N tasks, each {@code synchronized} on an object of its own, block for S inside.
 * No two tasks contend, yet on JDK 21–23 each pins its carrier while it blocks, so N tasks take
 * about ceil(N / carriers) × S instead of S.
 *
 * <p>Variants: {@code synchronized} and its fixed twin {@code reentrant-lock}.
 *
 * <p>Events and finding: JDK 21–23, {@code synchronized}: one {@code jdk.VirtualThreadPinned} per
 * task whose block lasts longer than the threshold; the frame holding the monitor is {@link
 * #withMonitor}. JDK 24+: no pinned events.
 */
public final class PerTaskPinning implements Workload {

  @Override
  public String name() {
    return "pinning-per-task";
  }

  @Override
  public String description() {
    return "each task holds a monitor of its own while it blocks: no contention, still pinned";
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
    return "one pinned event per task, SYNCHRONIZED_BLOCK culprit; none on 24+";
  }

  @Override
  public List<String> variants() {
    return List.of("synchronized", "reentrant-lock");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    Duration hold = args.duration("hold");
    boolean monitor = args.variant().equals("synchronized");
    long start = System.nanoTime();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < tasks; i++) {
        executor.submit(
            () -> {
              if (monitor) {
                withMonitor(new Object(), hold);
              } else {
                withLock(new ReentrantLock(), hold);
              }
            });
      }
    }
    double millis = (System.nanoTime() - start) / 1e6;
    int cpus = Runtime.getRuntime().availableProcessors();
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("holdMicros", hold.toNanos() / 1000)
        .figure("carriers", cpus)
        .figure("wallMillis", Math.round(millis * 10) / 10.0)
        .figure("ifPinnedMillis", Math.ceil(tasks / (double) cpus) * hold.toNanos() / 1e6)
        .claim("time = ceil(N / cores) x S with synchronized on JDK 21, S otherwise");
  }

  private static void withMonitor(Object lock, Duration hold) {
    synchronized (lock) {
      block(hold);
    }
  }

  private static void withLock(ReentrantLock lock, Duration hold) {
    lock.lock();
    try {
      block(hold);
    } finally {
      lock.unlock();
    }
  }

  private static void block(Duration hold) {
    LockSupport.parkNanos(hold.toNanos());
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(21, 25),
        "--tasks 100",
        "reentrant-lock",
        "`pinning-per-task --tasks 100 --hold 100ms`",
        "ceil(N/cores) × S on JDK 21",
        "on JDK 21 the tasks run two at a time (2 carriers); `ifPinnedMillis` prints the ceil(N/2) × S bound");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "100", "tasks, each with a monitor of its own"),
        WorkloadOption.duration("hold", "100ms", "how long each task blocks inside its monitor"));
  }
}
