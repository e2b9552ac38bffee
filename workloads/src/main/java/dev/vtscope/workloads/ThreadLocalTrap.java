package dev.vtscope.workloads;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A ThreadLocal used as a pool: an expensive client cached per thread. With a fixed pool the cache
 * holds one client per pool thread; with a virtual thread per task every task builds its own.
 *
 * <p>Variants: {@code virtual} and {@code fixed-pool}. Events and finding: no pinning; the
 * workload's figure (clients created) is the point.
 */
public final class ThreadLocalTrap implements Workload {

  private static final AtomicInteger CLIENTS = new AtomicInteger();

  /** Stands for an expensive client (an HTTP client, a parser, a connection). */
  static final class ExpensiveClient {
    private final byte[] buffers = new byte[16 * 1024];

    ExpensiveClient() {
      CLIENTS.incrementAndGet();
    }

    int call(int request) {
      buffers[request % buffers.length]++;
      return request;
    }
  }

  private static final ThreadLocal<ExpensiveClient> CLIENT =
      ThreadLocal.withInitial(ExpensiveClient::new);

  @Override
  public String name() {
    return "threadlocal-trap";
  }

  @Override
  public String description() {
    return "a client cached in a ThreadLocal: one per pool thread, but one per task with virtual threads";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy: no pinning (the cost is in clients created, which the workload prints)";
  }

  @Override
  public List<String> variants() {
    return List.of("virtual", "fixed-pool");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int pool = args.integer("pool");
    CLIENTS.set(0);
    boolean virtual = args.variant().equals("virtual");
    try (ExecutorService executor =
        virtual
            ? Executors.newVirtualThreadPerTaskExecutor()
            : Executors.newFixedThreadPool(pool)) {
      for (int i = 0; i < tasks; i++) {
        int request = i;
        executor.submit(() -> CLIENT.get().call(request));
      }
    }
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("clientsCreated", CLIENTS.get())
        .claim("thousands of clients instead of 200");
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25),
        "",
        "fixed-pool",
        "`threadlocal-trap` / `--variant fixed-pool`",
        "thousands of clients instead of 200",
        "10,000 clients vs 200");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "10000", "tasks that use the cached client"),
        WorkloadOption.count("pool", "200", "platform threads of the fixed-pool variant"));
  }
}
