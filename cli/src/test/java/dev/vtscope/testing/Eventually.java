package dev.vtscope.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * Waits for a condition of a child process or a file to hold, polling, up to a deadline that only
 * guards against a hang: a loaded machine may take many times longer than a quiet one, and a test
 * asserts on what happened, never on how soon.
 */
public final class Eventually {

  /** The deadline for things that take a second on a quiet machine. */
  public static final Duration GENEROUS = Duration.ofSeconds(120);

  private Eventually() {}

  /**
   * Returns once {@code condition} is true; throws an {@link AssertionError} naming {@code what}
   * when it is still false after {@link #GENEROUS}.
   */
  public static void holds(String what, Callable<Boolean> condition) throws Exception {
    value(what, condition, Boolean::booleanValue);
  }

  /**
   * Returns the first value of {@code probe} that {@code done} accepts; throws an {@link
   * AssertionError} naming {@code what}, and showing the last value, when none has after {@link
   * #GENEROUS}. An assertion that fails inside {@code probe} ends the wait at once.
   */
  public static <T> T value(String what, Callable<T> probe, Predicate<T> done) throws Exception {
    long deadline = System.nanoTime() + GENEROUS.toNanos();
    T last = probe.call();
    while (!done.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "still not so after "
                + GENEROUS.toSeconds()
                + " s: "
                + what
                + (last instanceof Boolean ? "" : "; last seen:\n" + last));
      }
      Thread.sleep(100);
      last = probe.call();
    }
    return last;
  }
}
