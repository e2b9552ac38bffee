/**
 * Reads JFR recordings. This is the only package that imports {@code jdk.jfr.consumer}: it turns
 * the events vtscope cares about into small immutable records ({@link
 * dev.vtscope.recording.PinnedEvent}, {@link dev.vtscope.recording.Frame}, ...) and hands them to a
 * {@link dev.vtscope.recording.RecordingListener}. It also validates chunk headers before the JDK's
 * parser sees a file, so damaged input becomes a clear error instead of a hang or a stack trace.
 * May import only the JDK.
 */
package dev.vtscope.recording;
