package dev.vtscope.gate;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Note;
import java.util.List;

/**
 * Two analyses compared culprit by culprit.
 *
 * @param before the analysis of the earlier recording
 * @param after the analysis of the later one
 * @param tolerance relative change below which a culprit is the same
 * @param sites every culprit of either, regressions first
 * @param notes what makes the two recordings unlike each other (thresholds, stack depths, JDK
 *     releases, lengths), so that a difference may not be the code's
 */
public record DiffResult(
    Analysis before, Analysis after, double tolerance, List<SiteChange> sites, List<Note> notes) {

  public DiffResult {
    sites = List.copyOf(sites);
    notes = List.copyOf(notes);
  }

  /**
   * Whether pins were compared: every recording of both sides could record them. When not, no
   * pinned site is listed and the diff does not pass.
   */
  public boolean pinningCompared() {
    return Differ.pinningCompared(before, after);
  }

  /**
   * Whether the diff passes: no regression, and pins compared. A recording that could record no pin
   * shows none fixed and none new, so a diff with one never passes on that.
   */
  public boolean passed() {
    return !regression() && pinningCompared();
  }

  /** New or worse culprits, or more rejected tasks. */
  public boolean regression() {
    return sites.stream().anyMatch(SiteChange::regression)
        || after.submitFailed().events() > before.submitFailed().events();
  }

  /** How long the earlier recordings ran, summed over its inputs. */
  public long beforeRecordedNanos() {
    return Comparability.length(before);
  }

  /** How long the later recordings ran, summed over its inputs. */
  public long afterRecordedNanos() {
    return Comparability.length(after);
  }

  public long count(SiteChange.Status status) {
    return sites.stream().filter(s -> s.status() == status).count();
  }
}
