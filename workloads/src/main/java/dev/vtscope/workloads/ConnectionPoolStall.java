package dev.vtscope.workloads;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection pool whose checkout waits with {@code synchronized} + {@code Object.wait()}, used by
 * many more virtual threads than it has connections.
 *
 * <p>Variants: {@code wait-notify} and its fixed twin {@code semaphore} ({@link Semaphore} + {@link
 * ConcurrentLinkedQueue}).
 *
 * <p>Events and finding: on JDK 21–23 each waiting virtual thread holds its carrier in {@code
 * Object.wait()}; the scheduler compensates by starting carriers up to {@code maxPoolSize}, then no
 * carrier is left for the threads that would return a connection: the pool stalls with few or no
 * pinned events, only {@code jdk.JavaMonitorWait} and the carriers' {@code jdk.ThreadStart}. The
 * workload notices that no task finished for {@code --stall-after} and ends with a "stalled" result
 * so that the recording is written. On JDK 24+ both variants finish.
 */
public final class ConnectionPoolStall implements Workload {

  @Override
  public String name() {
    return "connection-pool";
  }

  @Override
  public String description() {
    return "a wait()/notify() connection pool used by many virtual threads: stalls on JDK 21-23";
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
    return "stall: MONITOR_WAIT sites and carriers started up to maxPoolSize; no pinned event";
  }

  @Override
  public List<String> variants() {
    return List.of("wait-notify", "semaphore");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int connections = args.integer("connections");
    Duration query = args.duration("query");
    Duration stallAfter = args.duration("stall-after");
    Pool pool =
        args.variant().equals("semaphore")
            ? new SemaphorePool(connections)
            : new MonitorPool(connections);
    AtomicLong done = new AtomicLong();
    long start = System.nanoTime();
    var executor = Executors.newVirtualThreadPerTaskExecutor();
    for (int i = 0; i < tasks; i++) {
      executor.submit(
          () -> {
            Object connection = pool.checkout();
            try {
              Thread.sleep(query);
            } finally {
              pool.checkin(connection);
            }
            done.incrementAndGet();
            return null;
          });
    }
    executor.shutdown();
    long lastDone = -1;
    long lastProgress = System.nanoTime();
    boolean stalled = false;
    while (!executor.isTerminated()) {
      Thread.sleep(100);
      long now = done.get();
      if (now != lastDone) {
        lastDone = now;
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > stallAfter.toNanos()) {
        stalled = true;
        break;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long platformThreads =
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("ForkJoinPool"))
            .count();
    WorkloadResult result =
        new WorkloadResult(name(), args.variant())
            .figure("tasks", tasks)
            .figure("connections", connections)
            .figure("completed", done.get())
            .figure("stalled", stalled)
            .figure("wallSeconds", Math.round(seconds * 100) / 100.0)
            .figure("tasksPerSecond", Math.round(done.get() / seconds * 10) / 10.0)
            .figure("carrierThreadsAlive", platformThreads)
            .claim("the wait()/notify() pool pins carriers; the Semaphore pool does not");
    if (stalled) {
      result.figure("result", "stalled: no task finished for " + stallAfter.toMillis() + " ms");
    }
    return result;
  }

  /** A pool of connections; here a connection is just an object. */
  private interface Pool {
    Object checkout() throws InterruptedException;

    void checkin(Object connection);
  }

  /** Checkout waits on the pool's monitor: the classic pre-virtual-thread pool. */
  private static final class MonitorPool implements Pool {
    private final Deque<Object> free = new ArrayDeque<>();

    MonitorPool(int size) {
      for (int i = 0; i < size; i++) {
        free.push(new Object());
      }
    }

    @Override
    public synchronized Object checkout() throws InterruptedException {
      while (free.isEmpty()) {
        wait();
      }
      return free.pop();
    }

    @Override
    public synchronized void checkin(Object connection) {
      free.push(connection);
      notify();
    }
  }

  /** The fixed twin: a semaphore counts the free connections, a lock-free queue holds them. */
  private static final class SemaphorePool implements Pool {
    private final Semaphore permits;
    private final Queue<Object> free = new ConcurrentLinkedQueue<>();

    SemaphorePool(int size) {
      permits = new Semaphore(size);
      for (int i = 0; i < size; i++) {
        free.add(new Object());
      }
    }

    @Override
    public Object checkout() throws InterruptedException {
      permits.acquire();
      return free.poll();
    }

    @Override
    public void checkin(Object connection) {
      free.add(connection);
      permits.release();
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(21, 25),
        "--variant wait-notify --stall-after 2s",
        "semaphore",
        "`connection-pool --variant wait-notify` / `semaphore`",
        "the wait() pool pins, the Semaphore pool does not",
        "JDK 21: the `wait()` pool **stalled** after 0–230 of 1,000 tasks with 256 carriers started and no pinned event at all; vtscope sees it through monitor waits and carrier compensation");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "1000", "virtual threads that check out a connection"),
        WorkloadOption.count("connections", "10", "connections in the pool"),
        WorkloadOption.duration("query", "10ms", "how long each task holds its connection"),
        WorkloadOption.duration(
            "stall-after", "3s", "how long without a finished task counts as stalled"));
  }
}
