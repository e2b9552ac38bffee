package dev.vtscope.live;

import java.nio.file.Path;

/**
 * A JVM running on this machine.
 *
 * @param pid its process id
 * @param main what it runs: the main class or jar and its arguments, as the JVM states them
 * @param javaVersion its JDK's version, e.g. {@code 21.0.8}, or null when it cannot be read
 * @param feature its feature release, e.g. 21, or 0 when unknown
 * @param javaHome its Java runtime's folder, or null when unknown
 */
public record LocalJvm(long pid, String main, String javaVersion, int feature, Path javaHome) {}
