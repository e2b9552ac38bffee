package dev.vtscope.analysis;

import java.util.List;

/**
 * Everything about {@code jdk.VirtualThreadPinned} events.
 *
 * @param durations statistics over all pinned events
 * @param virtualThreads distinct pinned virtual threads
 * @param truncatedStacks events whose stack JFR truncated
 * @param concurrency carriers pinned at the same time (the worst input, when there are several)
 * @param sites the sites, by total time descending
 */
public record PinnedSummary(
    DurationSummary durations,
    int virtualThreads,
    long truncatedStacks,
    Concurrency concurrency,
    List<Site> sites) {

  public PinnedSummary {
    sites = List.copyOf(sites);
  }

  public long events() {
    return durations.count();
  }

  public long totalNanos() {
    return durations.totalNanos();
  }
}
