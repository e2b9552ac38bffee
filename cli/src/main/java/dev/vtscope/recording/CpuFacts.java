package dev.vtscope.recording;

/**
 * CPU counts from {@code jdk.CPUInformation} and {@code jdk.ContainerConfiguration}.
 *
 * @param hardwareThreads hardware threads of the machine, or 0 when not recorded
 * @param containerCpus the container's effective CPU count, or 0 when not in a container or not
 *     recorded
 * @param description the CPU's description, or null
 */
public record CpuFacts(int hardwareThreads, int containerCpus, String description) {}
