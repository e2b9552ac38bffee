package dev.vtscope.analysis;

/**
 * One setting of the virtual-thread scheduler.
 *
 * @param property the system property, e.g. {@code jdk.virtualThreadScheduler.parallelism}
 * @param value the value in effect, or -1 when it cannot be known
 * @param source where the value comes from
 */
public record SchedulerSetting(String property, int value, Source source) {

  /** Where a setting's value comes from. */
  public enum Source {
    /** The recording shows the system property was set. */
    SET("set"),
    /** The recording shows the property was not set: the JDK's default applies. */
    DEFAULT("default"),
    /** The recording has no system properties: the default is assumed. */
    ASSUMED_DEFAULT("assumed-default");

    private final String label;

    Source(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
