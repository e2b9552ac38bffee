/**
 * Renders a {@link dev.vtscope.report.Report} (an analysis and its advice, a check, or a diff):
 * text for people, JSON for dashboards and CI, Markdown for pull requests, HTML for a browser,
 * JUnit XML for CI's test views. Renderers only format; nothing is computed while printing.
 * Everything vtscope says is worded in one place, {@link dev.vtscope.report.Wording} and its {@code
 * wording.properties}, from the {@link dev.vtscope.analysis.Message}s of notes, findings and
 * checks.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.attribution}, {@code dev.vtscope.gate}, {@code dev.vtscope.metrics}, {@code
 * dev.vtscope.recording}, {@code dev.vtscope.threaddump} and {@code dev.vtscope.waits} (a dump
 * analysis' model), {@code dev.vtscope.scan} (a class path scan's), {@code com.fasterxml.jackson},
 * the JDK. Never: {@code jdk.jfr}, {@code dev.vtscope.advice.Advisor}.
 */
package dev.vtscope.report;
