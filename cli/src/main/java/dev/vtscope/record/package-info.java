/**
 * Runs programs under JFR with vtscope's settings, and records running JVMs: finds JDKs the way a
 * user's machine has them, starts the child JVM, enforces a timeout, keeps whatever recording the
 * child wrote, waits out a running JVM's recording and stops it also when interrupted, and takes
 * the thread dump of a JVM whose recording ends. These are {@code vtscope record}'s loops; the
 * command wires its options to them and analyses what they recorded.
 *
 * <p>May import: {@code dev.vtscope.live}, {@code dev.vtscope.threaddump}, {@code
 * dev.vtscope.workloads}, {@code dev.vtscope.advice.Knowledge}, {@code
 * dev.vtscope.analysis.HumanDurations}, the JDK. Never: {@code jdk.jfr}.
 */
package dev.vtscope.record;
