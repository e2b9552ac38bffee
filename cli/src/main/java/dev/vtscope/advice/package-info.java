/**
 * Advice computed from an {@link dev.vtscope.analysis.Analysis}: findings ranked by the carrier
 * time at stake, and a carrier-pool recommendation. Rules are stateless; what vtscope knows about
 * JDK releases, libraries and thresholds is data, in {@code knowledge.json}.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.attribution}, {@code
 * dev.vtscope.recording}, {@code com.fasterxml.jackson}, the JDK. Never: {@code jdk.jfr}.
 */
package dev.vtscope.advice;
