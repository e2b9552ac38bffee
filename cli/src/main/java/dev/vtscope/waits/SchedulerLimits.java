package dev.vtscope.waits;

/**
 * What the JVM says of its virtual-thread scheduler's size, which no dump before JDK 25 does: how
 * many carriers it keeps busy, and how many it may start in all when it makes up for threads pinned
 * in {@code Object.wait()} (JDK 21–23), past which a pin holds its carrier for good.
 *
 * @param parallelism {@code jdk.virtualThreadScheduler.parallelism} in effect, or 0 when not known
 * @param maxPoolSize {@code jdk.virtualThreadScheduler.maxPoolSize} in effect, or 0 when not known
 */
public record SchedulerLimits(int parallelism, int maxPoolSize) {

  /** Nothing known: the carriers are those a dump shows. */
  public static final SchedulerLimits UNKNOWN = new SchedulerLimits(0, 0);

  public SchedulerLimits {
    parallelism = Math.max(0, parallelism);
    maxPoolSize = Math.max(0, maxPoolSize);
  }

  /** Only the parallelism known, or 0: for the callers that know no maximum pool size. */
  public static SchedulerLimits ofParallelism(int parallelism) {
    return new SchedulerLimits(parallelism, 0);
  }
}
