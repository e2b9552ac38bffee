package dev.vtscope.advice;

import java.util.List;

/**
 * What to change: findings, most severe first, and the carrier-pool recommendation.
 *
 * @param findings ranked findings; never empty for a recording of JDK 21 or later
 * @param carrierPool the recommendation, or null when the recording has no virtual threads or no
 *     scheduler facts
 */
public record Advice(List<Finding> findings, CarrierPool carrierPool) {

  public Advice {
    findings = List.copyOf(findings);
  }

  /**
   * The most severe finding of the recording at {@code input} of the analysis' inputs (the first of
   * equals, in rank order), or null when it has none: a healthy recording of a report of several
   * whose others are not has no finding.
   */
  public Finding worstIn(int input) {
    Finding worst = null;
    for (Finding f : findings) {
      Severity s = severityIn(f, input);
      if (s != null && (worst == null || s.compareTo(severityIn(worst, input)) > 0)) {
        worst = f;
      }
    }
    return worst;
  }

  /** How severe {@code finding} is in the recording at {@code input}; null when not found there. */
  public static Severity severityIn(Finding finding, int input) {
    return finding.spread() == null ? finding.severity() : finding.spread().severityIn(input);
  }
}
