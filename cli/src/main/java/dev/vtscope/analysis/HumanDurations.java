package dev.vtscope.analysis;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Formats nanoseconds for people: three significant digits and a unit, e.g. {@code 10.1 ms}. */
public final class HumanDurations {

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private HumanDurations() {}

  public static String format(long nanos) {
    if (nanos == 0) {
      return "0 ms";
    }
    int scale; // the unit's power of ten below a nanosecond count
    String unit;
    if (nanos < 1_000) {
      return nanos + " ns";
    } else if (nanos < 1_000_000) {
      scale = 3;
      unit = "us";
    } else if (nanos < 1_000_000_000) {
      scale = 6;
      unit = "ms";
    } else if (nanos < 60_000_000_000L) {
      scale = 9;
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
    // Exact decimal arithmetic rather than a format string: the same digits as %.0f, %.1f and
    // %.2f of the quotient (whose shortest decimal form is exact at these sizes), without the cold
    // Formatter that cost a small recording's analysis a tenth of its time.
    BigDecimal value = BigDecimal.valueOf(nanos, scale);
    int decimals = value.compareTo(HUNDRED) >= 0 ? 0 : value.compareTo(BigDecimal.TEN) >= 0 ? 1 : 2;
    String digits =
        value.setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    return digits + " " + unit;
  }
}
