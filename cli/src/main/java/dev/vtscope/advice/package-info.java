/**
 * Advice computed from an {@link dev.vtscope.analysis.Analysis}: findings ranked by the carrier
 * time at stake, and a carrier-pool recommendation, as data: each finding's title, explanation and
 * actions are {@link dev.vtscope.analysis.Message}s that the renderers word. Rules are stateless;
 * what vtscope knows about JDK releases, libraries and thresholds is data, in {@code
 * knowledge.json}.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.attribution}, {@code
 * dev.vtscope.recording}, {@code dev.vtscope.waits} and {@code dev.vtscope.threaddump} (a thread
 * dump's deadlocks), {@code com.fasterxml.jackson}, the JDK. Never: {@code jdk.jfr}.
 */
package dev.vtscope.advice;
