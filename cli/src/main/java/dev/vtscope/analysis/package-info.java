/**
 * Turns recorded events into an {@link dev.vtscope.analysis.Analysis}: sites with duration
 * statistics, carrier concurrency, submit failures, the recording's facts and plain notes about
 * what the recording can and cannot show. Pure Java over the records of {@code
 * dev.vtscope.recording}; never imports {@code jdk.jfr}.
 */
package dev.vtscope.analysis;
