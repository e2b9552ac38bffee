/**
 * Reads JFR recordings, with vtscope's own reader or the JDK's {@code jdk.jfr.consumer}; this is
 * the only package that imports {@code jdk.jfr}. It turns the events vtscope cares about into small
 * immutable records ({@link dev.vtscope.recording.PinnedEvent}, {@link
 * dev.vtscope.recording.Frame}, ...) and hands them to a {@link
 * dev.vtscope.recording.RecordingListener}, and turns damaged input into a clear error or a note.
 *
 * <p>May import: {@code jdk.jfr}, the JDK.
 */
package dev.vtscope.recording;
