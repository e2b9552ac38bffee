package dev.vtscope.analysis;

import java.util.List;

/**
 * How many carriers were pinned at the same time.
 *
 * @param peak the largest number of carriers pinned at one instant
 * @param saturatedNanos total time during which at least {@code parallelism} carriers were pinned
 * @param parallelism the scheduler parallelism the saturation time refers to
 * @param nanosAtLevel {@code nanosAtLevel.get(k)} is the time during which exactly k carriers were
 *     pinned, for k from 1 to {@code peak} (index 0 is unused and 0)
 */
public record Concurrency(int peak, long saturatedNanos, int parallelism, List<Long> nanosAtLevel) {

  public Concurrency {
    nanosAtLevel = List.copyOf(nanosAtLevel);
  }

  /** No pinned interval at all. */
  public static Concurrency none(int parallelism) {
    return new Concurrency(0, 0, parallelism, List.of(0L));
  }
}
