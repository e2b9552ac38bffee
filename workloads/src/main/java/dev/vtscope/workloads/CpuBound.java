package dev.vtscope.workloads;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * CPU-bound work: tasks that count primes, on platform threads versus virtual threads. Virtual
 * threads add no CPU: both take about the same time.
 *
 * <p>Variants: {@code virtual} and {@code platform}. Events and finding: no pinning on any JDK.
 */
public final class CpuBound implements Workload {

  @Override
  public String name() {
    return "cpu-bound";
  }

  @Override
  public String description() {
    return "48 tasks counting primes: platform vs virtual threads take about the same time";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy: no pinning";
  }

  @Override
  public List<String> variants() {
    return List.of("virtual", "platform");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int limit = args.integer("limit");
    boolean virtual = args.variant().equals("virtual");
    long start = System.nanoTime();
    long primes = 0;
    try (ExecutorService executor =
        virtual
            ? Executors.newVirtualThreadPerTaskExecutor()
            : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors())) {
      List<Future<Integer>> results =
          java.util.stream.IntStream.range(0, tasks)
              .mapToObj(i -> executor.submit(() -> countPrimes(limit)))
              .toList();
      for (Future<Integer> result : results) {
        primes += result.get();
      }
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("limit", limit)
        .figure("primesCounted", primes)
        .figure("wallMillis", millis)
        .claim("about equal: 2,387 ms (platform) vs 2,300 ms (virtual)");
  }

  static int countPrimes(int limit) {
    int count = 0;
    for (int n = 2; n <= limit; n++) {
      boolean prime = true;
      for (int d = 2; (long) d * d <= n; d++) {
        if (n % d == 0) {
          prime = false;
          break;
        }
      }
      if (prime) {
        count++;
      }
    }
    return count;
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25),
        "--tasks 8 --limit 200000",
        "platform",
        "`cpu-bound --tasks 8 --limit 200000` / `--variant platform`",
        "about equal (2,300 vs 2,387 ms)",
        "326 ms virtual vs 305 ms platform");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "48", "tasks that count primes"),
        WorkloadOption.count("limit", "1000000", "each task counts the primes below this"));
  }
}
