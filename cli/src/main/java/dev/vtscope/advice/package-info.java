/**
 * Advice computed from an {@link dev.vtscope.analysis.Analysis}: findings ranked by the carrier
 * time at stake, and a carrier-pool recommendation. Rules are stateless; what vtscope knows about
 * JDK releases, libraries and thresholds is data, in {@code knowledge.json}.
 */
package dev.vtscope.advice;
