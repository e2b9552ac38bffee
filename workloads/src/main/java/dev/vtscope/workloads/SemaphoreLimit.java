package dev.vtscope.workloads;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Limit the scarce thing, not the threads: every task gets a virtual thread, and a Semaphore of 20
 * guards the partner API. Concurrency is not capacity.
 *
 * <p>Variants: {@code semaphore} and {@code unlimited}. Events and finding: no pinning; the
 * workload prints the highest number of concurrent calls the partner API saw.
 */
public final class SemaphoreLimit implements Workload {

  @Override
  public String name() {
    return "semaphore-limit";
  }

  @Override
  public String description() {
    return "a Semaphore(20) in front of a partner API while every task has a virtual thread";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy: no pinning (a Semaphore parks, it does not pin)";
  }

  @Override
  public List<String> variants() {
    return List.of("semaphore", "unlimited");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int permits = args.integer("permits");
    Duration call = args.duration("call");
    boolean limited = args.variant().equals("semaphore");
    Semaphore semaphore = new Semaphore(permits);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    long start = System.nanoTime();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < tasks; i++) {
        executor.submit(
            () -> {
              if (limited) {
                semaphore.acquire();
              }
              try {
                highest.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                Thread.sleep(call);
                inFlight.decrementAndGet();
              } finally {
                if (limited) {
                  semaphore.release();
                }
              }
              return null;
            });
      }
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("permits", limited ? permits : "none")
        .figure("highestConcurrentCalls", highest.get())
        .figure("wallMillis", millis)
        .claim("concurrency is not capacity: the partner API sees at most 20 calls");
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25),
        "",
        "unlimited",
        "`semaphore-limit` / `--variant unlimited`",
        "the partner API sees at most 20 calls",
        "20 concurrent calls with the Semaphore vs 800 without");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "2000", "tasks that call the partner API"),
        WorkloadOption.count("permits", "20", "the semaphore's permits"),
        WorkloadOption.duration("call", "10ms", "how long each call takes"));
  }
}
