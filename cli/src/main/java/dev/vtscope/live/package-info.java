/**
 * Running JVMs on this machine: lists the ones vtscope can attach to, with their JDK release, and
 * runs the JDK's diagnostic commands in them over the Attach API (what {@code jcmd} sends), to
 * start and stop vtscope's JFR recording under a name of its own and to find the JFR repository it
 * writes to, and takes thread dumps (the carriers pinned now, which no JFR event shows while the
 * pin lasts; every thread, one dump or a series, for {@code vtscope dump}), with fallbacks when the
 * JSON dump fails. Nothing here parses JFR or a dump itself: {@code dev.vtscope.threaddump} reads
 * every dump format. It holds {@code vtscope watch}'s loop ({@link dev.vtscope.live.Watching}): a
 * JVM's repository streamed into a live analysis every interval, the recording stopped when
 * watching ends; the command wires its options to it and shows each interval.
 *
 * <p>May import: {@code com.sun.tools.attach}, {@code com.fasterxml.jackson}, {@code
 * dev.vtscope.files} (the dumps {@code dump --save} keeps), {@code dev.vtscope.recording}, {@code
 * dev.vtscope.threaddump}, {@code dev.vtscope.waits}, {@code dev.vtscope.analysis}, {@code
 * dev.vtscope.advice}, the JDK. Never: {@code jdk.jfr}, {@code dev.vtscope.cli}, {@code
 * dev.vtscope.report}.
 */
package dev.vtscope.live;
