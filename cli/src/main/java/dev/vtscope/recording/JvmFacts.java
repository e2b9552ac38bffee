package dev.vtscope.recording;

/**
 * What a recording says about the JVM that wrote it ({@code jdk.JVMInformation}).
 *
 * @param jvmName e.g. "OpenJDK 64-Bit Server VM"
 * @param jvmVersion the full version string JFR recorded
 * @param javaVersion the Java runtime version, e.g. "21.0.8+9-LTS", or null when not found
 * @param feature the feature release, e.g. 21, or 0 when it could not be read
 * @param jvmStartNanos when the JVM started, in nanoseconds since the epoch
 * @param pid the JVM's process id, or -1 when not recorded
 */
public record JvmFacts(
    String jvmName,
    String jvmVersion,
    String javaVersion,
    int feature,
    long jvmStartNanos,
    long pid) {}
