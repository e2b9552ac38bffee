package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JVMs that cannot record: JFR turned off, or a runtime without the jdk.jfr module. Each runs in a
 * child JVM, which runs annotated tests with JUnit and prints how each ended.
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

  /** Runs {@link Annotated} and prints a line per test: its name, status and message. */
  public static void main(String[] args) {
    Kit.run(Annotated.class, Path.of(args[0]))
        .forEach(
            (name, result) ->
                System.out.println(
                    name
                        + " "
                        + result.getStatus()
                        + " "
                        + result.getThrowable().map(Throwable::getMessage).orElse("")));
  }

  @Test
  void jfrTurnedOffFailsTheTestSayingSo() throws Exception {
    List<String> lines = child("-XX:-FlightRecorder");

    assertThat(lines)
        .containsExactlyInAnyOrder(
            "failsByDefault FAILED vtscope: cannot check this test for pinning: JFR is turned off"
                + " in this JVM (-XX:-FlightRecorder). Run the tests on a JDK with JFR (its jdk.jfr"
                + " module, without -XX:-FlightRecorder), or let such JVMs skip these tests:"
                + " @NoPinning(jfrUnavailable = SKIP).",
            "skipsWhenAsked ABORTED vtscope: cannot check this test for pinning: JFR is turned off"
                + " in this JVM (-XX:-FlightRecorder). Run the tests on a JDK with JFR (its jdk.jfr"
                + " module, without -XX:-FlightRecorder).");
  }

  @Test
  void aRuntimeWithoutJfrFailsTheTestSayingSo() throws Exception {
    List<String> lines = child("--limit-modules", "java.se");

    assertThat(lines)
        .containsExactlyInAnyOrder(
            "failsByDefault FAILED vtscope: cannot check this test for pinning: this JVM has no"
                + " jdk.jfr module (a runtime image made without it). Run the tests on a JDK with"
                + " JFR (its jdk.jfr module, without -XX:-FlightRecorder), or let such JVMs skip"
                + " these tests: @NoPinning(jfrUnavailable = SKIP).",
            "skipsWhenAsked ABORTED vtscope: cannot check this test for pinning: this JVM has no"
                + " jdk.jfr module (a runtime image made without it). Run the tests on a JDK with"
                + " JFR (its jdk.jfr module, without -XX:-FlightRecorder).");
  }

  /** The lines a child JVM with {@code options} prints running {@link #main}. */
  private List<String> child(String... options) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(options));
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            JfrUnavailableTest.class.getName(),
            dir.toString()));
    Path out = dir.resolve("out.txt");
    Process child =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(dir.resolve("err.txt").toFile())
            .start();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child JVM ends").isTrue();
    assertThat(child.exitValue())
        .as("exit code; stderr: " + Files.readString(dir.resolve("err.txt")))
        .isZero();
    return Files.readAllLines(out);
  }
}
