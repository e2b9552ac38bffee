/**
 * What the threads of a thread dump wait for: pure logic over {@link dev.vtscope.threaddump}'s
 * model. Which virtual threads hold their carrier while blocked ({@link
 * dev.vtscope.waits.CarrierHolding}); what each thread waits for and the groups of threads that
 * wait for the same thing at the same place; across a series of dumps of one JVM, which waits
 * persist; and the wait-for graph with its deadlocks and starvation. Returns immutable summaries;
 * reading files, taking dumps, advice and rendering are other packages' business.
 *
 * <p>May import: {@code dev.vtscope.threaddump}, {@code dev.vtscope.recording} (frames and stacks),
 * {@code dev.vtscope.attribution} (application frames, pinned attribution), the JDK. Never: {@code
 * jdk.jfr}, {@code java.nio.file.Files}, {@code dev.vtscope.analysis}, {@code dev.vtscope.live},
 * {@code dev.vtscope.cli}, {@code dev.vtscope.report}.
 */
package dev.vtscope.waits;
