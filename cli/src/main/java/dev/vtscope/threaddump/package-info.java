/**
 * Thread dumps, read: one immutable model ({@link dev.vtscope.threaddump.ThreadDump}, its {@link
 * dev.vtscope.threaddump.DumpedThread}s, what each waits for and holds) and one parser per format
 * the JDK writes: the JSON of {@code Thread.dump_to_file -format=json} ({@link
 * dev.vtscope.threaddump.ThreadDumpJson}), its plain text ({@link
 * dev.vtscope.threaddump.ThreadDumpText}), and {@code Thread.print}/{@code jstack}, which a
 * recording's {@code jdk.ThreadDump} event holds too ({@link dev.vtscope.threaddump.ThreadPrint}).
 * {@link dev.vtscope.threaddump.ThreadDumpFiles} tells a file's format; {@link
 * dev.vtscope.threaddump.DumpMerge} completes a dump with the {@code Thread.print} taken with it.
 * Records say what a dump says, nothing inferred; taking a dump of a running JVM is {@code
 * dev.vtscope.live}'s business.
 *
 * <p>May import: {@code dev.vtscope.recording} (frames and stacks), {@code com.fasterxml.jackson},
 * the JDK. Never: {@code jdk.jfr}, {@code dev.vtscope.analysis}, {@code dev.vtscope.live}, {@code
 * dev.vtscope.cli}.
 */
package dev.vtscope.threaddump;
