/**
 * A JUnit 5 extension that fails a test whose virtual threads pin their carriers: {@link
 * dev.vtscope.junit.NoPinning} on a class or method, or {@link
 * dev.vtscope.junit.NoPinningExtension} registered in code. Each test method runs under a JFR
 * recording with vtscope's settings; the recording is read, analysed, advised and checked by the
 * same code as {@code vtscope analyze} and {@code vtscope check}, and a failure names the holder,
 * its kind and artifact, where to change the code and the fix.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.attribution}, {@code dev.vtscope.gate}, {@code dev.vtscope.recording}, {@code
 * org.junit.jupiter.api}, {@code org.junit.platform.commons.support}, {@code org.opentest4j},
 * {@code jdk.jfr} (to start and stop a recording), {@code dev.vtscope.report.Wording} and {@code
 * dev.vtscope.report.Escaping} (findings, checks and names are worded as every report words them),
 * the JDK. Never: {@code jdk.jfr.consumer} (the recording package reads recordings), {@code
 * dev.vtscope.cli}, the renderers (only their wording).
 */
package dev.vtscope.junit;
