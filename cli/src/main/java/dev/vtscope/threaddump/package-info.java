/**
 * Thread dumps, read: one immutable model ({@link dev.vtscope.threaddump.ThreadDump}, its {@link
 * dev.vtscope.threaddump.DumpedThread}s, what each waits for and holds) and one parser per format
 * the JDK writes, starting with the JSON of {@code Thread.dump_to_file -format=json} ({@link
 * dev.vtscope.threaddump.ThreadDumpJson}). Records say what a dump says, nothing inferred; taking a
 * dump of a running JVM is {@code dev.vtscope.live}'s business.
 *
 * <p>May import: {@code dev.vtscope.recording} (frames and stacks), {@code com.fasterxml.jackson},
 * the JDK. Never: {@code jdk.jfr}, {@code dev.vtscope.analysis}, {@code dev.vtscope.live}, {@code
 * dev.vtscope.cli}.
 */
package dev.vtscope.threaddump;
