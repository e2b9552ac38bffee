package dev.vtscope.junit;

import dev.vtscope.gate.AllowList;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * What a test may pin, and how it is recorded; a null limit is not checked. When no limit is given,
 * no pinned event is allowed ({@link #eventLimit}).
 *
 * @param maxEvents the most pinned events allowed
 * @param maxTotalNanos the most pinned time allowed in total
 * @param maxPinNanos the longest single pin allowed
 * @param allow sites that are not counted
 * @param thresholdNanos pins shorter than this are not recorded
 * @param jfrUnavailable what a test does when JFR cannot record
 */
record PinningBudget(
    Long maxEvents,
    Long maxTotalNanos,
    Long maxPinNanos,
    AllowList allow,
    long thresholdNanos,
    NoPinning.JfrUnavailable jfrUnavailable) {

  /** The event limit checked: with no limit given at all, zero. */
  Long eventLimit() {
    return maxEvents == null && maxTotalNanos == null && maxPinNanos == null
        ? Long.valueOf(0)
        : maxEvents;
  }

  /** No pinned event at all, every pin recorded, failing when JFR cannot record. */
  static final PinningBudget NONE =
      new PinningBudget(null, null, null, AllowList.NONE, 0, NoPinning.JfrUnavailable.FAIL);

  /**
   * The budget an annotation states.
   *
   * @param where the annotated class or method, to name in an error
   * @throws ExtensionConfigurationException naming the attribute and what it takes
   */
  static PinningBudget of(NoPinning a, String where) {
    if (a.maxEvents() < -1) {
      throw bad(where, "maxEvents = " + a.maxEvents(), "0 or more (-1: no limit on the count)");
    }
    return new PinningBudget(
        a.maxEvents() == -1 ? null : a.maxEvents(),
        a.maxTotal().isBlank() ? null : nanos(a.maxTotal(), "maxTotal", where),
        a.maxPin().isBlank() ? null : nanos(a.maxPin(), "maxPin", where),
        new AllowList(Arrays.asList(a.allow())),
        nanos(a.threshold(), "threshold", where),
        a.jfrUnavailable());
  }

  PinningBudget withMaxEvents(long events) {
    if (events < 0) {
      throw new IllegalArgumentException("maxEvents takes 0 or more, not " + events);
    }
    return new PinningBudget(
        events, maxTotalNanos, maxPinNanos, allow, thresholdNanos, jfrUnavailable);
  }

  PinningBudget withMaxTotal(Duration total) {
    return new PinningBudget(
        maxEvents,
        nonNegative(total, "maxTotal"),
        maxPinNanos,
        allow,
        thresholdNanos,
        jfrUnavailable);
  }

  PinningBudget withMaxPin(Duration pin) {
    return new PinningBudget(
        maxEvents,
        maxTotalNanos,
        nonNegative(pin, "maxPin"),
        allow,
        thresholdNanos,
        jfrUnavailable);
  }

  PinningBudget withAllowed(List<String> entries) {
    List<String> all = new java.util.ArrayList<>(allow.entries());
    all.addAll(entries);
    return new PinningBudget(
        maxEvents, maxTotalNanos, maxPinNanos, new AllowList(all), thresholdNanos, jfrUnavailable);
  }

  PinningBudget withThreshold(Duration threshold) {
    return new PinningBudget(
        maxEvents,
        maxTotalNanos,
        maxPinNanos,
        allow,
        nonNegative(threshold, "threshold"),
        jfrUnavailable);
  }

  PinningBudget withJfrUnavailable(NoPinning.JfrUnavailable then) {
    return new PinningBudget(maxEvents, maxTotalNanos, maxPinNanos, allow, thresholdNanos, then);
  }

  private static long nonNegative(Duration d, String name) {
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " takes a duration of 0 or more, not " + d);
    }
    return d.toNanos();
  }

  /** Durations as {@code vtscope check} takes them: 500us, 20ms, 1.5s, 2m, 0. */
  private static long nanos(String text, String attribute, String where) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    if (t.equals("0")) {
      return 0;
    }
    String[][] units = {
      {"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}, {"m", "60000000000"}
    };
    try {
      for (String[] unit : units) {
        if (t.endsWith(unit[0])
            && !(unit[0].length() == 1 && Character.isLetter(charBeforeUnit(t)))) {
          BigDecimal value =
              new BigDecimal(t.substring(0, t.length() - unit[0].length()))
                  .multiply(new BigDecimal(unit[1]));
          if (value.signum() >= 0) {
            return value.setScale(0, RoundingMode.HALF_UP).longValueExact();
          }
        }
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // said below
    }
    throw bad(where, attribute + " = \"" + text + "\"", "a duration like 500us, 20ms or 1.5s");
  }

  private static char charBeforeUnit(String t) {
    return t.length() < 2 ? '0' : t.charAt(t.length() - 2);
  }

  private static ExtensionConfigurationException bad(String where, String given, String takes) {
    return new ExtensionConfigurationException(
        "@NoPinning(" + given + ") on " + where + ": takes " + takes);
  }
}
