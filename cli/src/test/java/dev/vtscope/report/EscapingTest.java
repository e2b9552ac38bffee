package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Each medium's form of a hostile name; {@code HostileNamesTest} runs them through the commands.
 */
class EscapingTest {

  @Test
  void aTerminalSeesControlAndBidiCharactersAsEscapes() {
    assertThat(Escaping.terminal("a\u001Bcb\u009B31m\u001B]0;t\u0007\n\t\r\u007F"))
        .isEqualTo("a\\u001Bcb\\u009B31m\\u001B]0;t\\u0007\\n\\t\\r\\u007F");
    assertThat(Escaping.terminal("x\u202Ey\u2066z\u200F\u061C"))
        .isEqualTo("x\\u202Ey\\u2066z\\u200F\\u061C");
    // a lone surrogate is shown, a pair is a character
    assertThat(Escaping.terminal("a\uD800b\uD83D\uDE00")).isEqualTo("a\\uD800b\uD83D\uDE00");
    assertThat(Escaping.terminal("ünï$pkg.Kläss")).isEqualTo("ünï$pkg.Kläss");
    assertThat(Escaping.terminal(null)).isNull();
  }

  @Test
  void aLongNameIsCutInTheMiddleWithItsLengthSaid() {
    String name = "head" + "x".repeat(100_000) + "tail";
    String shown = Escaping.terminal(name);
    assertThat(shown)
        .startsWith("headxxx")
        .endsWith("xxxtail")
        .contains("…[99778 of 100008 characters left out]…");
    assertThat(shown.length()).isLessThan(300);
    assertThat(Escaping.terminal("x".repeat(Escaping.LONGEST_NAME)))
        .isEqualTo("x".repeat(Escaping.LONGEST_NAME));
    // never half a surrogate pair at either cut
    String emoji = "\uD83D\uDE00".repeat(1_000);
    assertThat(Escaping.terminal(emoji)).doesNotContain("\\uD83D", "\\uDE00");
  }

  @Test
  void xmlKeepsLineBreaksAndShowsWhatXmlCannotHold() {
    assertThat(Escaping.xml("a\u001Bb\n\tc\u0000\uFFFE")).isEqualTo("a\\u001Bb\n\tc\\u0000\\uFFFE");
  }

  @Test
  void openMetricsUsesItsOwnEscapesAndReplacesTheRestByOneCharacter() {
    assertThat(Escaping.openMetrics("a\\b\"c\nd\u001Be\u202Ef\tg\uD800h\uD83D\uDE00"))
        .isEqualTo("a\\\\b\\\"c\\nd\uFFFDe\uFFFDf\uFFFDg\uFFFDh\uD83D\uDE00");
  }
}
