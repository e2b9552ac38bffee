package dev.vtscope.analysis;

import dev.vtscope.waits.SchedulerLimits;
import java.util.Map;

/**
 * The virtual-thread scheduler's settings during a recording.
 *
 * @param parallelism carriers the scheduler keeps busy (default: the CPU count)
 * @param maxPoolSize the most carriers it may start, compensation included (default:
 *     max(parallelism, 256))
 * @param minRunnable carriers kept runnable while others are blocked (default: max(parallelism / 2,
 *     1))
 * @param carriersStarted carrier threads the recording saw start ({@code jdk.ThreadStart} in the
 *     CarrierThreads group), or -1 when thread starts were not recorded
 */
public record SchedulerSettings(
    SchedulerSetting parallelism,
    SchedulerSetting maxPoolSize,
    SchedulerSetting minRunnable,
    int carriersStarted) {

  static final String PREFIX = "jdk.virtualThreadScheduler.";

  /**
   * Derives the settings the way the JDK's scheduler does.
   *
   * @param properties the recorded {@code jdk.virtualThreadScheduler.*} properties
   * @param propertiesRecorded whether the recording has system properties at all
   * @param cpus the CPU count the JVM saw, or 0 when unknown
   * @param carriersStarted carrier threads seen to start, or -1 when not recorded
   */
  static SchedulerSettings derive(
      Map<String, String> properties, boolean propertiesRecorded, int cpus, int carriersStarted) {
    SchedulerSetting.Source fallback =
        propertiesRecorded
            ? SchedulerSetting.Source.DEFAULT
            : SchedulerSetting.Source.ASSUMED_DEFAULT;
    Integer parallelismSet = parse(properties.get(PREFIX + "parallelism"));
    int parallelism = parallelismSet != null ? parallelismSet : (cpus > 0 ? cpus : -1);
    Integer maxSet = parse(properties.get(PREFIX + "maxPoolSize"));
    int maxPool = maxSet != null ? maxSet : (parallelism > 0 ? Math.max(parallelism, 256) : -1);
    Integer minSet = parse(properties.get(PREFIX + "minRunnable"));
    int minRunnable =
        minSet != null ? minSet : (parallelism > 0 ? Math.max(parallelism / 2, 1) : -1);
    return new SchedulerSettings(
        new SchedulerSetting(
            PREFIX + "parallelism",
            parallelism,
            parallelismSet != null ? SchedulerSetting.Source.SET : fallback),
        new SchedulerSetting(
            PREFIX + "maxPoolSize",
            maxPool,
            maxSet != null ? SchedulerSetting.Source.SET : fallback),
        new SchedulerSetting(
            PREFIX + "minRunnable",
            minRunnable,
            minSet != null ? SchedulerSetting.Source.SET : fallback),
        carriersStarted);
  }

  /**
   * The settings of a running JVM, derived as its scheduler derives them.
   *
   * @param properties its system properties, of which the {@code jdk.virtualThreadScheduler.*} ones
   *     count
   * @param cpus its active processor count, or 0 when unknown
   */
  public static SchedulerSettings ofJvm(Map<String, String> properties, int cpus) {
    return derive(properties, true, cpus, -1);
  }

  /** Its parallelism and maximum pool size, each 0 when not known: what a wait-for graph needs. */
  public SchedulerLimits limits() {
    return new SchedulerLimits(parallelism.value(), maxPoolSize.value());
  }

  private static Integer parse(String value) {
    if (value == null) {
      return null;
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      return parsed > 0 ? parsed : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
