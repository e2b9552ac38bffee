/**
 * Adds up the JSON reports of many recordings, each analysed on its own (one task per recording,
 * where its application's jars are), into the report of them all: reads each report's recordings
 * first, so that a recording reached twice counts once, then the reports themselves, on every core,
 * a batch at a time, adding them up with {@link dev.vtscope.analysis.RecordingSet} and {@link
 * dev.vtscope.advice.Advice#combine}, as {@code analyze} adds up the recordings it reads.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.report}, {@code com.fasterxml.jackson}, the JDK. Never: {@code jdk.jfr}, {@code
 * dev.vtscope.advice.Advisor}, {@code dev.vtscope.cli}.
 */
package dev.vtscope.fleet;
