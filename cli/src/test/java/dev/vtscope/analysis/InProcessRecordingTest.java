package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.Frame;
import dev.vtscope.testing.Reports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording made in this JVM around a tiny scenario: a virtual thread that sleeps inside a
 * synchronized method. JDK 21–23 pin it; JDK 24+ do not. The suite runs on both, so both branches
 * are checked.
 */
class InProcessRecordingTest {

  @TempDir Path dir;

  private static synchronized void sleepHoldingTheClassMonitor() throws InterruptedException {
    Thread.sleep(30);
  }

  @Test
  void sleepingInsideSynchronizedPinsBeforeJdk24Only() throws Exception {
    Path file = dir.resolve("in-process.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      recording.enable("jdk.JVMInformation");
      recording.enable("jdk.ActiveSetting");
      recording.start();
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  sleepHoldingTheClassMonitor();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              })
          .join();
      recording.stop();
      recording.dump(file);
    }
    assertThat(Files.size(file)).isPositive();

    Analysis a = Reports.analyze("in-process.jfr", file, GroupBy.STACK);

    assertThat(a.feature()).isEqualTo(Runtime.version().feature());
    if (Runtime.version().feature() < 24) {
      // the recording sees every thread of the suite's JVM: this test's pin is the site whose
      // stack holds the class monitor (a full suite run on JDK 21 once gave a 5 us site first)
      Site site =
          a.pinned().sites().stream()
              .filter(
                  s ->
                      s.stack().frames().stream()
                          .anyMatch(f -> f.method().equals("sleepHoldingTheClassMonitor")))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no pin in sleepHoldingTheClassMonitor"));
      // The pin lasts from the park to the end of the sleep: on a busy machine the operating
      // system may take the CPU from the thread for most of the 30 ms before it parks (7.9 ms
      // pinned seen with the load at 13 on 2 CPUs), so only that it pinned is certain.
      assertThat(site.durations().count()).isPositive();
      assertThat(site.durations().totalNanos()).as("the pins of a 30 ms sleep").isPositive();
      Frame holder =
          site.stack().frames().stream()
              .filter(Frame::isSynchronizedMethod)
              .findFirst()
              .orElseThrow();
      assertThat(holder.method()).isEqualTo("sleepHoldingTheClassMonitor");
      assertThat(site.topApplicationFrame().method()).isEqualTo("sleepHoldingTheClassMonitor");
    } else {
      assertThat(a.pinned().events()).isZero();
      assertThat(a.notes()).extracting(Note::id).contains("no-pinning");
    }
    assertThat(a.inputs().get(0).problem()).isNull();
  }
}
