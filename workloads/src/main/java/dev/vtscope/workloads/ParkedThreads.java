package dev.vtscope.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * How many parked virtual threads fit: threads that {@code park()} forever versus {@code
 * parkUntil(Long.MAX_VALUE)}. The workload caps itself (a thread count and a share of the heap)
 * before the heap or the collector stalls the JVM, so that it ends and its recording is written.
 *
 * <p>Variants: {@code park} and {@code park-until}. Events and finding: no pinning.
 */
public final class ParkedThreads implements Workload {

  @Override
  public String name() {
    return "parked-threads";
  }

  @Override
  public String description() {
    return "start virtual threads that stay parked, capped before the heap runs out; memory per thread";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy: no pinning (the figure is bytes per parked thread)";
  }

  @Override
  public List<String> variants() {
    return List.of("park", "park-until");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int cap = args.integer("max-threads");
    int heapPercent = args.integer("heap-percent");
    boolean until = args.variant().equals("park-until");
    Runtime runtime = Runtime.getRuntime();
    long limit = runtime.maxMemory() * heapPercent / 100;
    System.gc();
    long before = runtime.totalMemory() - runtime.freeMemory();
    // Kept reachable: unreachable parked threads may be collected, which is how articles count
    // "billions" of them.
    List<Thread> threads = new ArrayList<>();
    String stopped = "max-threads";
    while (threads.size() < cap) {
      threads.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    if (until) {
                      LockSupport.parkUntil(Long.MAX_VALUE);
                    } else {
                      LockSupport.park();
                    }
                  }));
      if (threads.size() % 10_000 == 0 && runtime.totalMemory() - runtime.freeMemory() > limit) {
        stopped = "heap-percent";
        break;
      }
    }
    Thread.sleep(200); // let the last threads park
    System.gc();
    long used = runtime.totalMemory() - runtime.freeMemory() - before;
    int parked = threads.size();
    threads.forEach(LockSupport::unpark);
    return new WorkloadResult(name(), args.variant())
        .figure("parkedThreads", parked)
        .figure("stoppedBy", stopped)
        .figure("heapUsedMiB", used >> 20)
        .figure("bytesPerThread", parked == 0 ? 0 : used / parked)
        .claim(
            "\"36 billion\" parked threads (unreachable ones are collected); ~5.6 M with parkUntil in 4 GB");
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25),
        "--max-threads 20000",
        "park-until",
        "`parked-threads` / `--variant park-until` (capped at 200,000 threads or 60 % of the heap)",
        "\"36 billion\" parked; ~5.6 M with parkUntil in 4 GB",
        "~763 bytes per thread with `park()`, ~1,022 with `parkUntil`; kept reachable so they are not collected");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("max-threads", "200000", "the most virtual threads parked"),
        WorkloadOption.count("heap-percent", "60", "stop when the heap is this full, in percent"));
  }
}
