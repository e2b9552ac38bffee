/**
 * The analysis as metrics for monitoring systems: pinned time and events per holder with bounded
 * label cardinality (the top sites and one "other" series), submit failures, the most carriers held
 * at once and findings by severity. {@link dev.vtscope.metrics.PinningMetrics} is one analysis as
 * metrics; {@link dev.vtscope.metrics.MetricsTotals} adds analyses up as monotonic counters, for a
 * JVM that is analysed continuously. The renderers format them ({@code
 * dev.vtscope.report.OpenMetricsReport}).
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.attribution}, {@code dev.vtscope.recording}, the JDK. Never: {@code jdk.jfr}, {@code
 * dev.vtscope.report}.
 */
package dev.vtscope.metrics;
