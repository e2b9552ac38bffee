package dev.vtscope.advice;

import dev.vtscope.analysis.DumpAnalysis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The findings of a thread dump analysis, most severe first: the one place they are made. The
 * deadlocks and starved carriers of the wait-for graph ({@link DeadlockFinding}), the virtual
 * threads pinned now ({@link PinnedNowFinding}) and a crowd of them waiting for one resource
 * ({@link CrowdedWaitFinding}).
 */
public final class DumpAdvisor {

  private DumpAdvisor() {}

  /** The advice for {@code analysis}; it has no carrier-pool recommendation. */
  public static Advice advise(DumpAnalysis analysis) {
    List<Finding> findings = new ArrayList<>(DeadlockFinding.of(analysis.deadlocks()));
    // a dump names no scheduler parallelism, and no pin that ended: each pinned thread counts
    PinnedNowFinding.of(analysis.pinnedNow(), 0, Map.of()).ifPresent(findings::add);
    CrowdedWaitFinding.of(analysis.series()).ifPresent(findings::add);
    findings.sort(Comparator.comparing(Finding::severity, Comparator.reverseOrder()));
    return new Advice(findings, null);
  }
}
