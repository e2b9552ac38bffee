package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A recording states the settings of every event type in every chunk; the readers give those of the
 * types they read, and all of those.
 */
class SettingsReadTest {

  private static List<EventSetting> settings(Path recording, boolean jdkReader) throws IOException {
    List<EventSetting> seen = new ArrayList<>();
    RecordingListener listener =
        new RecordingListener() {
          @Override
          public void setting(EventSetting setting) {
            seen.add(setting);
          }
        };
    ChunkScan scan = ChunkScanner.scan(recording);
    if (jdkReader) {
      assertThat(new JfrStreamReader().read(recording, scan, listener).stoppedEarly()).isNull();
    } else {
      try (JfrFileReader reader = new JfrFileReader()) {
        assertThat(reader.read(recording, scan, listener).stoppedEarly()).isNull();
      }
    }
    return seen;
  }

  @Test
  void onlyTheSettingsOfTheEventTypesReadAndEachOfTheirs() throws IOException {
    Path recording = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    for (boolean jdkReader : new boolean[] {false, true}) {
      List<EventSetting> settings = settings(recording, jdkReader);
      assertThat(settings)
          .as("reader jdk=%s", jdkReader)
          .isNotEmpty()
          .allSatisfy(s -> assertThat(ChunkDecoder.WANTED_EVENTS).contains(s.eventType()));
      assertThat(settings)
          .extracting(s -> s.eventType() + "#" + s.name())
          .as("reader jdk=%s", jdkReader)
          .contains(
              "jdk.VirtualThreadPinned#enabled",
              "jdk.VirtualThreadPinned#threshold",
              "jdk.VirtualThreadSubmitFailed#enabled",
              "jdk.ThreadStart#enabled")
          .doesNotContain("jdk.ThreadPark#enabled", "jdk.ObjectAllocationSample#enabled");
    }
  }
}
