package dev.vtscope.analysis;

import java.util.Locale;

/** Formats nanoseconds for people: three significant digits and a unit, e.g. {@code 10.1 ms}. */
public final class HumanDurations {

  private HumanDurations() {}

  public static String format(long nanos) {
    if (nanos == 0) {
      return "0 ms";
    }
    double value = nanos;
    String unit;
    if (nanos < 1_000) {
      return nanos + " ns";
    } else if (nanos < 1_000_000) {
      value /= 1_000;
      unit = "us";
    } else if (nanos < 1_000_000_000) {
      value /= 1_000_000;
      unit = "ms";
    } else if (nanos < 60_000_000_000L) {
      value /= 1_000_000_000;
      unit = "s";
    } else {
      long seconds = nanos / 1_000_000_000L;
      long minutes = seconds / 60;
      // whole minutes and hours say no zero: "1 min", not "1 min 0 s"
      if (minutes < 60) {
        return seconds % 60 == 0 ? minutes + " min" : minutes + " min " + (seconds % 60) + " s";
      }
      return minutes % 60 == 0
          ? (minutes / 60) + " h"
          : (minutes / 60) + " h " + (minutes % 60) + " min";
    }
    String digits =
        value >= 100
            ? String.format(Locale.ROOT, "%.0f", value)
            : value >= 10
                ? String.format(Locale.ROOT, "%.1f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    if (digits.contains(".")) {
      digits = digits.replaceAll("\\.?0+$", "");
    }
    return digits + " " + unit;
  }
}
