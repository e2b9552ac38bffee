package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Shares as people read them: whole percentages, {@code <1%}, {@code 100%}, {@code n/a}. */
class MessageShareTest {

  @Test
  void wholePercentagesRoundedHalfUp() {
    assertThat(new Message.Share(1, 8).percent()).isEqualTo("13%");
    assertThat(new Message.Share(1, 3).percent()).isEqualTo("33%");
    assertThat(new Message.Share(0, 3).percent()).isEqualTo("0%");
    assertThat(new Message.Share(1, 1_000).percent()).isEqualTo("<1%");
    assertThat(new Message.Share(199, 200).percent()).isEqualTo("100%");
    assertThat(new Message.Share(5, 0).percent()).isEqualTo("n/a");
  }

  /** The oracle: the format string the percentage was first written with. */
  @Property(tries = 5_000)
  void sameDigitsAsTheFormatString(
      @ForAll @LongRange(min = 0, max = 1_000_000) long part,
      @ForAll @LongRange(min = 1, max = 1_000_000) long whole) {
    double ratio = part / (double) whole;
    String expected =
        ratio >= 0.995
            ? "100%"
            : ratio > 0 && ratio < 0.01 ? "<1%" : String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    assertThat(new Message.Share(part, whole).percent()).isEqualTo(expected);
  }
}
