package dev.vtscope.analysis;

import java.util.List;

/**
 * Everything about {@code jdk.VirtualThreadSubmitFailed} events.
 *
 * @param events how many tasks the scheduler rejected
 * @param groups grouped by message and stack, most events first
 */
public record SubmitFailedSummary(long events, List<SubmitFailureGroup> groups) {

  public SubmitFailedSummary {
    groups = List.copyOf(groups);
  }
}
