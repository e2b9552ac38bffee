package dev.vtscope.cli;

import java.math.BigDecimal;
import java.util.Locale;

/** Durations as users type them: 500ms, 1.5s, 20 ms, 2m, 250us, 0. */
final class DurationParser {

  private DurationParser() {}

  /**
   * Parses {@code text} into nanoseconds.
   *
   * @throws ExitException with {@link ExitCode#USAGE} naming {@code option} when it is not one
   */
  static long nanos(String text, String option) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    if (t.equals("0")) {
      return 0;
    }
    String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
    try {
      for (String[] unit : units) {
        if (t.endsWith(unit[0])
            && !(unit[0].equals("s")
                && (t.endsWith("ms") || t.endsWith("ns") || t.endsWith("us")))) {
          BigDecimal value = new BigDecimal(t.substring(0, t.length() - unit[0].length()));
          return checked(value.multiply(new BigDecimal(unit[1])));
        }
      }
      if (t.endsWith("m")) {
        BigDecimal value = new BigDecimal(t.substring(0, t.length() - 1));
        return checked(value.multiply(new BigDecimal("60000000000")));
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // fall through to the error below
    }
    throw new ExitException(
        ExitCode.USAGE, option + " takes a duration like 500ms, 1.5s or 5m, not '" + text + "'");
  }

  private static long checked(BigDecimal nanos) {
    if (nanos.signum() < 0) {
      throw new NumberFormatException("negative");
    }
    return nanos.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
  }
}
