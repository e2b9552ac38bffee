package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the reader says of damage it read past, counted as a person counts. */
class DamageNotesTest {

  private static List<String> notes(long dangling, long unknown) {
    List<String> notes = new ArrayList<>();
    JfrFileReader.addDamageNotes(notes, dangling, unknown);
    return notes;
  }

  @Test
  void oneIsSingularAndMoreArePlural() {
    assertThat(notes(1, 1))
        .containsExactly(
            "1 reference to constants the recording does not hold (damaged?): the stack, thread or"
                + " name it points to is shown as missing",
            "1 record of event types the recording does not declare was skipped (damaged?)");
    assertThat(notes(3, 2))
        .containsExactly(
            "3 references to constants the recording does not hold (damaged?): the stacks,"
                + " threads or names they point to are shown as missing",
            "2 records of event types the recording does not declare were skipped (damaged?)");
    assertThat(Counted.of(0, "valid chunk")).isEqualTo("0 valid chunks");
  }
}
