package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult.Status;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A recording sees the whole JVM, so with parallel execution an annotated test runs alone: while it
 * runs, no other test does, while tests without the annotation still run side by side.
 */
class IsolationTest {

  @TempDir Path recordings;

  /** When each test ran, in nanoseconds: start and end. */
  static final Map<String, long[]> RAN = new ConcurrentHashMap<>();

  static void sleepAndNote(String name) throws InterruptedException {
    long start = System.nanoTime();
    Thread.sleep(300);
    RAN.put(name, new long[] {start, System.nanoTime()});
  }

  static class Plain {
    @Test
    void plainOne() throws Exception {
      sleepAndNote("plainOne");
    }

    @Test
    void plainTwo() throws Exception {
      sleepAndNote("plainTwo");
    }

    @Test
    void plainThree() throws Exception {
      sleepAndNote("plainThree");
    }
  }

  static class Checked {
    @Test
    @NoPinning
    void checked() throws Exception {
      sleepAndNote("checked");
    }
  }

  @Test
  void anAnnotatedTestRunsAloneWhenTestsRunInParallel() {
    // JFR's first start in a JVM takes long enough for the tests to miss each other by chance.
    Kit.run(Checked.class, recordings);
    RAN.clear();
    var results =
        EngineTestKit.engine("junit-jupiter")
            .configurationParameter(NoPinningExtension.RECORDINGS_PARAMETER, recordings.toString())
            .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
            .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
            .configurationParameter(
                "junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
            .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
            .configurationParameter(
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "4")
            .selectors(
                DiscoverySelectors.selectClass(Plain.class),
                DiscoverySelectors.selectClass(Checked.class))
            .execute();

    assertThat(results.testEvents().succeeded().count()).isEqualTo(4);
    long[] checked = RAN.get("checked");
    for (String plain : new String[] {"plainOne", "plainTwo", "plainThree"}) {
      long[] other = RAN.get(plain);
      assertThat(other[1] <= checked[0] || other[0] >= checked[1])
          .as(plain + " ran apart from the annotated test")
          .isTrue();
    }
    assertThat(
            overlap(RAN.get("plainOne"), RAN.get("plainTwo"))
                || overlap(RAN.get("plainOne"), RAN.get("plainThree"))
                || overlap(RAN.get("plainTwo"), RAN.get("plainThree")))
        .as("tests without the annotation ran in parallel, so the check above could fail")
        .isTrue();
    assertThat(results.testEvents().finished().stream())
        .allMatch(
            e ->
                e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                        .orElseThrow()
                        .getStatus()
                    == Status.SUCCESSFUL);
  }

  private static boolean overlap(long[] a, long[] b) {
    return a[0] < b[1] && b[0] < a[1];
  }
}
