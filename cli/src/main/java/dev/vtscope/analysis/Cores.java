package dev.vtscope.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

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
    switch (failed.get()) {
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
