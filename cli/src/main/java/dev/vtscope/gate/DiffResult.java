package dev.vtscope.gate;

import dev.vtscope.analysis.Analysis;
import java.util.List;

/**
 * Two analyses compared culprit by culprit.
 *
 * @param before the analysis of the earlier recording
 * @param after the analysis of the later one
 * @param tolerance relative change below which a culprit is the same
 * @param sites every culprit of either, regressions first
 */
public record DiffResult(
    Analysis before, Analysis after, double tolerance, List<SiteChange> sites) {

  public DiffResult {
    sites = List.copyOf(sites);
  }

  /** New or worse culprits, or more rejected tasks. */
  public boolean regression() {
    return sites.stream().anyMatch(SiteChange::regression)
        || after.submitFailed().events() > before.submitFailed().events();
  }

  public long count(SiteChange.Status status) {
    return sites.stream().filter(s -> s.status() == status).count();
  }
}
