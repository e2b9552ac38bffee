/**
 * Names the code to blame for a pin: the frame that holds the carrier (a {@code synchronized}
 * method or block, a native or foreign-function call, a class initialiser), where the thread
 * waited, and the application frame that called in. Reads class bytes (its own reading of the
 * class-file format) to find {@code synchronized} blocks and jar metadata to name artifacts.
 *
 * <p>May import: {@code dev.vtscope.recording}, the JDK. Never: {@code jdk.jfr}, {@code
 * dev.vtscope.workloads}.
 */
package dev.vtscope.attribution;
