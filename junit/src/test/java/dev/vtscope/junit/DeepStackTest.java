package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Site;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;

/**
 * A pin 150 frames down a virtual thread's stack, deeper than JFR's default of 64: the extension
 * records deep enough that the holder is on the stack. A static initialiser that blocks pins on
 * every JDK, once per class.
 */
class DeepStackTest {

  @TempDir Path recordings;

  static class DeepClassInit {
    @Test
    @NoPinning
    void initialisesASlowClassDeepDown() throws Exception {
      Thread.ofVirtual().start(() -> descend(150)).join();
    }

    private static void descend(int depth) {
      if (depth == 0) {
        SlowToInitialise.touch();
      } else {
        descend(depth - 1);
      }
    }

    /** Blocks in its static initialiser, as one that loads configuration over the network. */
    static final class SlowToInitialise {
      static {
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }

      static void touch() {}
    }
  }

  @Test
  void theHolderIsFoundBelowJfrsDefaultDepth() {
    Map<String, TestExecutionResult> results = Kit.run(DeepClassInit.class, recordings);

    String message = Kit.failure(results.get("initialisesASlowClassDeepDown"));
    String holder = DeepClassInit.SlowToInitialise.class.getName() + ".<clinit>";
    assertThat(message)
        .contains("1. " + holder + " holds the carrier: 1 pin, ")
        .containsPattern("kind +class initialiser")
        .contains("change at  " + holder + "(DeepStackTest.java:")
        .doesNotContain("cut at JFR's stack depth");

    Path kept = Path.of(message.replaceAll("(?s).*Recording kept: (\\S+\\.jfr) .*", "$1"));
    List<Site> sites = PinningVerdict.of(kept, PinningBudget.NONE, List.of()).counted();
    assertThat(sites).hasSize(1);
    assertThat(sites.get(0).stack().truncated()).isFalse();
    assertThat(sites.get(0).stack().frames()).hasSizeGreaterThan(150);
  }

  @Test
  void aDepthTheJvmsOptionsChoseIsKeptAndTheMessageSaysWhatItCut() throws Exception {
    List<String> lines =
        Kit.runInChildJvm(
            recordings, DeepClassInit.class, "-XX:FlightRecorderOptions:stackdepth=64");

    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith("initialisesASlowClassDeepDown FAILED ")
        .contains(
            "1 pinned stack was cut at JFR's stack depth of 64 frames, which may hide the holder:"
                + " start the test JVM with -XX:FlightRecorderOptions:stackdepth=256.");
  }
}
