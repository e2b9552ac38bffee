package dev.vtscope.analysis;

import java.util.List;

/**
 * Monitor enters or waits of virtual threads on JDK 21–23: each held its carrier, although no
 * pinned event was written.
 *
 * @param durations statistics over the events
 * @param virtualThreads distinct virtual threads
 * @param sites the sites, by total time descending
 */
public record MonitorSummary(DurationSummary durations, int virtualThreads, List<Site> sites) {

  public MonitorSummary {
    sites = List.copyOf(sites);
  }

  public long events() {
    return durations.count();
  }
}
