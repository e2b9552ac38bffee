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

  /**
   * Of two recordings' figures, those of the one that held more carriers at once (then longer with
   * all held): what a report of several recordings shows, as carriers are never counted across
   * JVMs. A null side gives the other.
   */
  public static Concurrency worse(Concurrency worst, Concurrency candidate) {
    if (candidate == null) {
      return worst;
    }
    if (worst == null
        || candidate.peak() > worst.peak()
        || (candidate.peak() == worst.peak()
            && candidate.saturatedNanos() > worst.saturatedNanos())) {
      return candidate;
    }
    return worst;
  }
}
