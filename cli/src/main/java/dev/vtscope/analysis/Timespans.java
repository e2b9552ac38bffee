package dev.vtscope.analysis;

import java.util.Locale;

/** Parses JFR's timespan settings, such as {@code 20 ms} or {@code 0 ns}. */
final class Timespans {

  private Timespans() {}

  /** Nanoseconds, or null when {@code text} is not a timespan. */
  static Long parseNanos(String text) {
    if (text == null) {
      return null;
    }
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("0")) {
      return 0L;
    }
    int i = 0;
    while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) {
      i++;
    }
    if (i == 0) {
      return null;
    }
    double number;
    try {
      number = Double.parseDouble(t.substring(0, i));
    } catch (NumberFormatException e) {
      return null;
    }
    String unit = t.substring(i).trim();
    long factor =
        switch (unit) {
          case "ns" -> 1L;
          case "us" -> 1_000L;
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m", "min" -> 60_000_000_000L;
          case "h" -> 3_600_000_000_000L;
          case "d" -> 86_400_000_000_000L;
          default -> -1L;
        };
    return factor < 0 ? null : Math.round(number * factor);
  }
}
