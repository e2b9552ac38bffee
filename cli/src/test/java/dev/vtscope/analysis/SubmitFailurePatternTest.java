package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** What differs between equal rejections, replaced in their messages so that they group. */
class SubmitFailurePatternTest {

  @Test
  void aForkJoinPoolRejectionLosesItsIdentitiesAndCounts() {
    String message =
        "Task java.lang.VirtualThread$$Lambda/0x000000000b14c1c8@7ef27d7f rejected from"
            + " java.util.concurrent.ForkJoinPool@5a2e4553[Running, parallelism = 2, size = 2,"
            + " active = 2, running = 0, steals = 1735, tasks = 0, submissions = 10]";
    assertThat(SubmitFailureCollector.pattern(message))
        .isEqualTo(
            "Task java.lang.VirtualThread$$Lambda/0x…@… rejected from"
                + " java.util.concurrent.ForkJoinPool@…[Running, parallelism = N, size = N,"
                + " active = N, running = N, steals = N, tasks = N, submissions = N]");
    assertThat(SubmitFailureCollector.pattern(null)).isNull();
    assertThat(SubmitFailureCollector.pattern("")).isEmpty();
  }

  /** The oracle: the regular expressions the rule was first written with, applied in order. */
  @Property(tries = 20_000)
  void sameAsTheRegularExpressions(@ForAll("messages") String message) {
    String expected =
        Pattern.compile("(?<=[ =])\\d+(?=[,\\]])")
            .matcher(
                Pattern.compile("@[0-9a-fA-F]+")
                    .matcher(Pattern.compile("0x[0-9a-fA-F]+").matcher(message).replaceAll("0x…"))
                    .replaceAll("@…"))
            .replaceAll("N");
    assertThat(SubmitFailureCollector.pattern(message)).isEqualTo(expected);
  }

  /** Strings of the characters the rules look at, and a few others, so that they meet often. */
  @Provide
  Arbitrary<String> messages() {
    return Arbitraries.strings().withChars("0x@ =,]aF9g[-é\n").ofMinLength(0).ofMaxLength(40);
  }
}
