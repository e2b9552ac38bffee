package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.TwoRecordingsProgram;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings a recording shows are those the JVM applied. */
class RecordingSettingsTest {

  @Test
  void twoRecordingsAtOnceShowTheThresholdTheJvmApplied() throws Exception {
    // The command line's recording has a 20 ms threshold; the program's own has 0: the JVM
    // records every pin, and the report must not claim that short pins were left out.
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), "20ms", TwoRecordingsProgram.class.getName());
    for (ReaderKind reader : ReaderKind.values()) {
      Analysis a =
          Reports.analyze(RecordingInputs.resolve(List.of(recording)), GroupBy.CULPRIT, reader);
      assertThat(a.settings().pinnedThresholdNanos()).as(reader.name()).isZero();
      assertThat(a.pinned().events()).as(reader.name()).isGreaterThanOrEqualTo(40);
      assertThat(a.notes()).extracting(Note::id).as(reader.name()).doesNotContain("threshold");
    }
  }
}
