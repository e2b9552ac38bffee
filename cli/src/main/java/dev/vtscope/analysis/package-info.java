/**
 * Turns recorded events into an {@link dev.vtscope.analysis.Analysis}: sites with duration
 * statistics, carrier concurrency, submit failures, the recording's facts and plain notes about
 * what the recording can and cannot show, as {@link dev.vtscope.analysis.Message}s: data that the
 * renderers word. Pure Java over the records of {@code dev.vtscope.recording}: files are read by
 * that package, class files by {@code dev.vtscope.attribution}.
 *
 * <p>May import: {@code dev.vtscope.recording}, {@code dev.vtscope.threaddump}, {@code
 * dev.vtscope.waits}, {@code dev.vtscope.attribution}, {@code org.HdrHistogram}, {@code
 * org.roaringbitmap}, the JDK. Never: {@code jdk.jfr}, {@code java.io}, {@code
 * java.nio.file.Files}, {@code java.nio.channels}, {@code dev.vtscope.workloads}.
 */
package dev.vtscope.analysis;
