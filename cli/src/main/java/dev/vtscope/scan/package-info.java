/**
 * {@code vtscope scan}: a static scan of a class path for code that can pin a virtual thread's
 * carrier without running it. It reads class files with attribution's reader ({@link
 * dev.vtscope.attribution.ClassCode}), follows calls through the class path up to a depth, and
 * reports each method that holds a monitor across a call that blocks, each class initialiser that
 * blocks, and the native and foreign-function entry points, as findings with their call chains. The
 * JDK methods that block are attribution's table ({@link dev.vtscope.attribution.BlockingCalls}),
 * which also names what a compensated carrier's thread blocked in.
 *
 * <p>It also matches a scan with an analysis of recordings ({@link ScanAgreement}): which recorded
 * sites the scan predicted, which findings the recordings hit.
 *
 * <p>May import: {@code dev.vtscope.attribution}, {@code dev.vtscope.advice.Knowledge}, {@code
 * dev.vtscope.advice.Severity}, {@code dev.vtscope.analysis} (the sites a scan is matched with),
 * the JDK. Never: {@code jdk.jfr}, {@code dev.vtscope.report}.
 */
package dev.vtscope.scan;
