package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Durations as people write them: three significant digits, and no zero parts. */
class HumanDurationsTest {

  private static final long MS = 1_000_000L;
  private static final long S = 1_000 * MS;

  @Test
  void threeSignificantDigitsAndNoTrailingZeros() {
    assertThat(HumanDurations.format(0)).isEqualTo("0 ms");
    assertThat(HumanDurations.format(750)).isEqualTo("750 ns");
    assertThat(HumanDurations.format(20 * MS)).isEqualTo("20 ms");
    assertThat(HumanDurations.format(10_140_000)).isEqualTo("10.1 ms");
    assertThat(HumanDurations.format(2_500 * MS)).isEqualTo("2.5 s");
  }

  @Test
  void wholeMinutesAndHoursSayNoZero() {
    assertThat(HumanDurations.format(60 * S)).isEqualTo("1 min");
    assertThat(HumanDurations.format(90 * S)).isEqualTo("1 min 30 s");
    assertThat(HumanDurations.format(3_600 * S)).isEqualTo("1 h");
    assertThat(HumanDurations.format(5_400 * S)).isEqualTo("1 h 30 min");
  }

  @Test
  void roundsHalfUpAtEachUnitsDigits() {
    assertThat(HumanDurations.format(1_005)).isEqualTo("1.01 us");
    assertThat(HumanDurations.format(99_995_000)).isEqualTo("100 ms");
    assertThat(HumanDurations.format(99_949_999)).isEqualTo("99.9 ms");
    assertThat(HumanDurations.format(9_995 * MS)).isEqualTo("10 s");
    assertThat(HumanDurations.format(59_999_999_999L)).isEqualTo("60 s");
  }

  /** The oracle: the format strings the digits were first written with. */
  @Property(tries = 5_000)
  void sameDigitsAsTheFormatStrings(@ForAll @LongRange(min = 1_000, max = 59_999_999_999L) long n) {
    double value = n < 1_000_000 ? n / 1e3 : n < 1_000_000_000 ? n / 1e6 : n / 1e9;
    String unit = n < 1_000_000 ? "us" : n < 1_000_000_000 ? "ms" : "s";
    String digits =
        String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    if (digits.contains(".")) {
      digits = digits.replaceAll("\\.?0+$", "");
    }
    assertThat(HumanDurations.format(n)).isEqualTo(digits + " " + unit);
  }
}
