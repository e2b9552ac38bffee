/**
 * Runs programs under JFR with vtscope's settings: finds JDKs the way a user's machine has them,
 * starts the child JVM, enforces a timeout, and keeps whatever recording the child wrote.
 *
 * <p>May import: the JDK. Never: {@code jdk.jfr}.
 */
package dev.vtscope.record;
