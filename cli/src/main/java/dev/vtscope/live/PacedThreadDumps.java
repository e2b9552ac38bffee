package dev.vtscope.live;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Thread dumps of one running JVM, taken on a thread of their own, so that whoever asks for them
 * keeps its own pace however long a dump takes: a JVM with 100,000 virtual threads takes a second
 * or more to dump, and longer when the machine is loaded. At most one dump runs at a time: one in
 * flight is waited for, never started again; and a new one starts only once the time since the last
 * one ended is twice what that one took, so that dumping takes at most a third of the time.
 *
 * @param <T> what a dump is made into
 */
public final class PacedThreadDumps<T> implements AutoCloseable {

  /** Takes one dump. */
  @FunctionalInterface
  public interface Dump<T> {
    T take() throws LiveException;
  }

  /**
   * The latest dump that finished.
   *
   * @param result what it gave, or null when none finished yet or the latest failed
   * @param failure why the latest failed, or null
   * @param startedNanos when it started ({@link System#nanoTime}), or -1 when none finished yet
   * @param tookNanos how long it took, or how long the dump running has run so far when none
   *     finished yet
   */
  public record Latest<T>(T result, LiveException failure, long startedNanos, long tookNanos) {}

  private final Dump<T> dump;
  private final ExecutorService thread;
  private Future<T> running;
  private long runningSince;
  private Latest<T> latest;
  private long lastEnded = Long.MIN_VALUE;

  /** Dumps with {@code dump}; none is taken before the first {@link #latest}. */
  public PacedThreadDumps(Dump<T> dump) {
    this.dump = dump;
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "vtscope-thread-dump");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The latest dump that finished by {@code deadlineNanos} ({@link System#nanoTime}): starts one
   * now if none runs and the pace allows, and waits until the deadline for the one running.
   */
  public Latest<T> latest(long deadlineNanos) throws InterruptedException {
    long now = System.nanoTime();
    if (running == null && paceAllows(now)) {
      runningSince = now;
      running = thread.submit(dump::take);
    }
    if (running != null) {
      try {
        T result =
            running.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        finished(result, null);
      } catch (TimeoutException e) {
        // still running: the latest finished one stands, and the next call waits for this one
      } catch (ExecutionException e) {
        finished(null, failure(e.getCause()));
      } catch (CancellationException e) {
        finished(null, new LiveException(LiveException.Reason.COMMAND_FAILED, "dump cancelled", e));
      }
    }
    if (latest == null) {
      return new Latest<>(null, null, -1, running == null ? 0 : System.nanoTime() - runningSince);
    }
    return latest;
  }

  private boolean paceAllows(long now) {
    if (latest == null) {
      return true;
    }
    return now - lastEnded >= 2 * latest.tookNanos();
  }

  private void finished(T result, LiveException failure) {
    lastEnded = System.nanoTime();
    latest = new Latest<>(result, failure, runningSince, lastEnded - runningSince);
    running = null;
  }

  private static LiveException failure(Throwable cause) {
    if (cause instanceof LiveException live) {
      return live;
    }
    return new LiveException(
        LiveException.Reason.COMMAND_FAILED, "the thread dump failed: " + cause, cause);
  }

  /** Stops waiting for a dump in flight; the JVM finishes writing it on its own. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
