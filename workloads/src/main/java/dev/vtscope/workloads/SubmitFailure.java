package dev.vtscope.workloads;

import java.lang.reflect.Constructor;
import java.lang.reflect.InaccessibleObjectException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Submit failures: the scheduler of virtual threads rejects a task. The JDK has no public API for a
 * custom scheduler; like the JDK's own tests, this workload reaches the virtual-thread builder that
 * takes one by reflection (it needs {@code --add-opens java.base/java.lang=ALL-UNNAMED}, which
 * {@code vtscope record} passes).
 *
 * <p>Variants: {@code shutdown} (the scheduler was shut down: every start is rejected) and {@code
 * bounded} (one carrier and a queue of one, with the abort policy: starts are rejected while it is
 * full).
 *
 * <p>Events and finding, on every JDK: {@code jdk.VirtualThreadSubmitFailed}, one per rejected
 * start, with the executor's message; no pinning.
 */
public final class SubmitFailure implements Workload {

  @Override
  public String name() {
    return "submit-failed";
  }

  @Override
  public String description() {
    return "a custom scheduler that is shut down or bounded rejects virtual threads' tasks";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "jdk.VirtualThreadSubmitFailed events grouped by the rejection message";
  }

  @Override
  public List<String> variants() {
    return List.of("shutdown", "bounded");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int threads = args.integer("threads");
    ExecutorService scheduler =
        args.variant().equals("shutdown")
            ? Executors.newSingleThreadExecutor()
            : new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(1),
                new ThreadPoolExecutor.AbortPolicy());
    if (args.variant().equals("shutdown")) {
      scheduler.shutdown();
    }
    Thread.Builder.OfVirtual builder = builderWith(scheduler);
    int rejected = 0;
    int started = 0;
    for (int i = 0; i < threads; i++) {
      try {
        builder.start(SubmitFailure::work);
        started++;
      } catch (RejectedExecutionException e) {
        rejected++;
      }
    }
    scheduler.shutdown();
    scheduler.awaitTermination(10, TimeUnit.SECONDS);
    return new WorkloadResult(name(), args.variant())
        .figure("threads", threads)
        .figure("started", started)
        .figure("rejected", rejected);
  }

  private static void work() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Thread.Builder.OfVirtual builderWith(Executor scheduler)
      throws ReflectiveOperationException {
    Class<?> type = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
    Constructor<?> constructor = type.getDeclaredConstructor(Executor.class);
    try {
      constructor.setAccessible(true);
    } catch (InaccessibleObjectException e) {
      throw new UnsupportedOperationException(
          "submit-failed needs --add-opens java.base/java.lang=ALL-UNNAMED (vtscope record passes it)");
    }
    return (Thread.Builder.OfVirtual) constructor.newInstance(scheduler);
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(21, 25),
        "--variant shutdown --threads 50",
        null,
        "`submit-failed --variant shutdown --threads 50`",
        "a rejected task emits `jdk.VirtualThreadSubmitFailed`",
        "50 of 50 starts rejected, 50 events, one group");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(WorkloadOption.count("threads", "50", "virtual threads started"));
  }
}
