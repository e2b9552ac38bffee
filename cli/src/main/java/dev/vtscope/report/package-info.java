/**
 * Renders an {@link dev.vtscope.analysis.Analysis} and its advice: text for people, JSON for
 * dashboards and CI. Renderers only format; nothing is computed while printing.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.attribution}, {@code dev.vtscope.gate}, {@code dev.vtscope.recording}, {@code
 * com.fasterxml.jackson}, the JDK. Never: {@code jdk.jfr}, {@code dev.vtscope.advice.Advisor}.
 */
package dev.vtscope.report;
