package dev.vtscope.workloads;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sleeping fan-out: many tasks that each sleep, on a fixed pool of platform threads versus one
 * virtual thread per task. Blocking without a monitor unmounts a virtual thread, so the virtual
 * variant takes about one sleep while the pool takes tasks / poolSize sleeps.
 *
 * <p>Variants: {@code virtual} and {@code fixed-pool}. Events and finding: no pinning on any JDK.
 */
public final class SleepFanout implements Workload {

  @Override
  public String name() {
    return "sleep-fanout";
  }

  @Override
  public String description() {
    return "10,000 sleeping tasks: a fixed pool of 200 platform threads vs a virtual thread per task";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy: no pinning, no submit failures";
  }

  @Override
  public List<String> variants() {
    return List.of("virtual", "fixed-pool");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int pool = args.integer("pool");
    Duration sleep = args.duration("sleep");
    boolean virtual = args.variant().equals("virtual");
    // how many tasks sleep at once: what the executor allows, whatever the machine's speed
    AtomicInteger sleeping = new AtomicInteger();
    AtomicInteger peakSleeping = new AtomicInteger();
    long start = System.nanoTime();
    try (ExecutorService executor =
        virtual
            ? Executors.newVirtualThreadPerTaskExecutor()
            : Executors.newFixedThreadPool(pool)) {
      for (int i = 0; i < tasks; i++) {
        executor.submit(
            () -> {
              peakSleeping.accumulateAndGet(sleeping.incrementAndGet(), Math::max);
              try {
                Thread.sleep(sleep);
              } finally {
                sleeping.decrementAndGet();
              }
              return null;
            });
      }
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("sleepMillis", sleep.toMillis())
        .figure("poolSize", virtual ? "one virtual thread per task" : pool)
        .figure("wallMillis", millis)
        .figure("peakSleeping", peakSleeping.get())
        .figure(
            "lowerBoundMillis",
            virtual ? sleep.toMillis() : (long) Math.ceil(tasks / (double) pool) * sleep.toMillis())
        .claim("5,116 ms (fixed pool of 200) vs 378 ms (virtual)");
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25),
        "--tasks 2000",
        "fixed-pool",
        "`sleep-fanout` / `--variant fixed-pool`",
        "378 ms vs 5,116 ms",
        "343 ms virtual vs 5,077 ms on a pool of 200 (lower bound 50 batches × 100 ms = 5,000 ms)");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "10000", "tasks that sleep"),
        WorkloadOption.count("pool", "200", "platform threads of the fixed-pool variant"),
        WorkloadOption.duration("sleep", "100ms", "how long each task sleeps"));
  }
}
