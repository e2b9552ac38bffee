package dev.vtscope.workloads;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * A metrics map: every task records a counter. The {@code synchronized} variant guards a HashMap
 * with a monitor; the fixed twin uses a ConcurrentHashMap of LongAdders. Nothing blocks inside the
 * monitor, so this shows contention, not pinning: expect no pinned events, possibly monitor enters
 * on JDK 21–23 under contention.
 *
 * <p>Variants: {@code synchronized} and {@code concurrent}.
 */
public final class MetricsMap implements Workload {

  @Override
  public String name() {
    return "metrics-map";
  }

  @Override
  public String description() {
    return "counters in a synchronized HashMap vs a ConcurrentHashMap of LongAdders: contention, not pinning";
  }

  @Override
  public String effectJdks() {
    return "21+ (contention only)";
  }

  @Override
  public String expectedFinding() {
    return "no pinning; at most short monitor enters on JDK 21-23";
  }

  @Override
  public List<String> variants() {
    return List.of("synchronized", "concurrent");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int updates = args.integer("updates");
    int keys = args.integer("keys");
    boolean monitor = args.variant().equals("synchronized");
    Map<String, Long> plain = new HashMap<>();
    Map<String, LongAdder> concurrent = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < tasks; t++) {
        int task = t;
        executor.submit(
            () -> {
              for (int u = 0; u < updates; u++) {
                String key = "metric-" + ((task + u) % keys);
                if (monitor) {
                  synchronized (plain) {
                    plain.merge(key, 1L, Long::sum);
                  }
                } else {
                  concurrent.computeIfAbsent(key, k -> new LongAdder()).increment();
                }
              }
            });
      }
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    long total =
        monitor
            ? plain.values().stream().mapToLong(Long::longValue).sum()
            : concurrent.values().stream().mapToLong(LongAdder::sum).sum();
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("updates", (long) tasks * updates)
        .figure("counted", total)
        .figure("wallMillis", millis)
        .claim("the lock was unnecessary");
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(21),
        "--tasks 2000 --updates 200",
        "concurrent",
        "`metrics-map --tasks 2000 --updates 200` / `--variant concurrent`",
        "the lock was unnecessary",
        "483 ms vs 423 ms for 400,000 updates; no pinning (nothing blocks inside the monitor)");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "10000", "tasks that record counters"),
        WorkloadOption.count("updates", "1000", "counter updates per task"),
        WorkloadOption.count("keys", "16", "distinct counters"));
  }
}
