package dev.vtscope.advice;

/**
 * One fact from the recording that a finding rests on.
 *
 * @param label what it is, e.g. {@code pinned time}
 * @param text the value for a person, e.g. {@code 1.21 s}
 * @param value the value for a program (nanoseconds for durations), or null when it has none
 * @param unit the unit of {@code value}: {@code ns}, {@code events}, {@code threads}, {@code
 *     carriers}, {@code ratio}; null when there is no value
 */
public record Evidence(String label, String text, Long value, String unit) {

  static Evidence nanos(String label, long nanos) {
    return new Evidence(label, dev.vtscope.analysis.HumanDurations.format(nanos), nanos, "ns");
  }

  static Evidence count(String label, long count, String unit) {
    return new Evidence(label, Long.toString(count), count, unit);
  }

  static Evidence text(String label, String text) {
    return new Evidence(label, text, null, null);
  }
}
