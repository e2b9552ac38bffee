package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JVMs that cannot record: JFR turned off, or a runtime without the jdk.jfr module, each a child
 * JVM that runs annotated tests with JUnit and prints how each ended.
 */
class JfrUnavailableTest {

  @TempDir Path dir;

  static class Annotated {
    @Test
    @NoPinning
    void failsByDefault() {}

    @Test
    @NoPinning(jfrUnavailable = NoPinning.JfrUnavailable.SKIP)
    void skipsWhenAsked() {}
  }

  @Test
  void jfrTurnedOffFailsTheTestSayingSo() throws Exception {
    List<String> lines = Kit.runInChildJvm(dir, Annotated.class, "-XX:-FlightRecorder");

    assertThat(lines)
        .containsExactlyInAnyOrder(
            "failsByDefault FAILED vtscope: cannot check this test for pinning: JFR is turned off"
                + " in this JVM (-XX:-FlightRecorder). Run the tests on a JDK with JFR (its jdk.jfr"
                + " module, without -XX:-FlightRecorder), or let such JVMs skip these tests:"
                + " @NoPinning(jfrUnavailable = SKIP), or skipWhenJfrUnavailable() in code.",
            "skipsWhenAsked ABORTED vtscope: cannot check this test for pinning: JFR is turned off"
                + " in this JVM (-XX:-FlightRecorder). Run the tests on a JDK with JFR (its jdk.jfr"
                + " module, without -XX:-FlightRecorder).");
  }

  @Test
  void aRuntimeWithoutJfrFailsTheTestSayingSo() throws Exception {
    List<String> lines = Kit.runInChildJvm(dir, Annotated.class, "--limit-modules", "java.se");

    assertThat(lines)
        .containsExactlyInAnyOrder(
            "failsByDefault FAILED vtscope: cannot check this test for pinning: this JVM has no"
                + " jdk.jfr module (a runtime image made without it). Run the tests on a JDK with"
                + " JFR (its jdk.jfr module, without -XX:-FlightRecorder), or let such JVMs skip"
                + " these tests: @NoPinning(jfrUnavailable = SKIP), or skipWhenJfrUnavailable() in code.",
            "skipsWhenAsked ABORTED vtscope: cannot check this test for pinning: this JVM has no"
                + " jdk.jfr module (a runtime image made without it). Run the tests on a JDK with"
                + " JFR (its jdk.jfr module, without -XX:-FlightRecorder).");
  }
}
