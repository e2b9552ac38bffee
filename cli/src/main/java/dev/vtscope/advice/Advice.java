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
}
