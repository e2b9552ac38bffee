package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

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
}
