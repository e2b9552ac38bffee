package dev.vtscope.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/** Work spread over the machine's cores: independent recordings or reports, one task each. */
public final class Cores {

  private Cores() {}

  /**
   * Runs {@code task} for each of 0 to {@code count} - 1, on as many threads as the machine has
   * cores (the calling thread one of them), each taking the next index when it is done; returns
   * when all are done. The first task to fail stops the others from taking more, and its exception
   * or error is thrown here.
   */
  public static void forEach(int count, IntConsumer task) {
    int threads = Math.min(count, Runtime.getRuntime().availableProcessors());
    if (threads <= 1) {
      for (int i = 0; i < count; i++) {
        task.accept(i);
      }
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Runnable worker = new Worker(count, task, next, failed);
    List<Thread> started = new ArrayList<>();
    for (int t = 1; t < threads; t++) {
      Thread thread = new Thread(worker, "vtscope-worker-" + t);
      thread.setDaemon(true);
      thread.start();
      started.add(thread);
    }
    worker.run();
    for (Thread thread : started) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the other cores", e);
      }
    }
    rethrow(failed.get());
  }

  /**
   * Starts {@code task} on a core of its own while the calling thread goes on: the returned
   * supplier waits for its result, and throws what it threw. On a machine of one core it runs here,
   * now, and what it threw is thrown by the supplier all the same.
   */
  public static <T> Supplier<T> start(Supplier<T> task) {
    Started<T> started = new Started<>(task);
    if (Runtime.getRuntime().availableProcessors() <= 1) {
      started.run();
      return () -> {
        rethrow(started.failed);
        return started.result;
      };
    }
    Thread thread = new Thread(started, "vtscope-worker-started");
    thread.setDaemon(true);
    thread.start();
    return () -> {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the other core", e);
      }
      rethrow(started.failed);
      return started.result;
    };
  }

  /** A task started on its own thread: what it gave, or how it failed (read once it is joined). */
  private static final class Started<T> implements Runnable {
    private final Supplier<T> task;
    private T result;
    private Throwable failed;

    Started(Supplier<T> task) {
      this.task = task;
    }

    @Override
    public void run() {
      try {
        result = task.get();
      } catch (Throwable e) { // a checked exception thrown sneakily too: get() never returns null
        failed = e;
      }
    }
  }

  private static void rethrow(Throwable failed) {
    switch (failed) {
      case null -> {}
      case RuntimeException e -> throw e;
      case Error e -> throw e;
      case Throwable t -> throw new IllegalStateException(t);
    }
  }

  /** Takes indices until there are none left or a task failed. */
  private record Worker(
      int count, IntConsumer task, AtomicInteger next, AtomicReference<Throwable> failed)
      implements Runnable {

    @Override
    public void run() {
      for (int i = next.getAndIncrement();
          i < count && failed.get() == null;
          i = next.getAndIncrement()) {
        try {
          task.accept(i);
        } catch (RuntimeException | Error e) {
          failed.compareAndSet(null, e);
        }
      }
    }
  }
}
