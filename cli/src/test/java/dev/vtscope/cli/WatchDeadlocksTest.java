package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.RunningWorkload;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code vtscope watch --pid} against workloads that deadlock or starve the carriers, in child JVMs
 * of JDK 21 and 25 with two carriers: the deadlock's finding names its whole chain by the second
 * thread dump, and a chain unchanged across watch's dumps is stuck. Every kind of deadlock, found
 * in the same dumps by the same code, is checked on both JDKs through {@code vtscope dump}, which
 * takes them without a recording ({@link DumpCommandTest}).
 */
class WatchDeadlocksTest {

  private static final Pattern AT = Pattern.compile("^ +(\\d+)s  ");

  /**
   * Watches the workload, from when it says it is stuck, in intervals of a second until the first
   * high finding, which ends watching with exit code 6 ({@code --fail-on high}); a minute at most,
   * however loaded the machine.
   */
  private static String watch(Path java, String... workload) throws Exception {
    try (RunningWorkload target =
        RunningWorkload.start(
            java, List.of("-Djdk.virtualThreadScheduler.parallelism=2"), workload)) {
      // the dumps that count start once the threads are stuck: a loaded machine can take the
      // first before they are
      target.awaitLine("ready:");
      Cli.Result result =
          Cli.run(
              "watch",
              "--pid",
              String.valueOf(target.pid()),
              "--interval",
              "1s",
              "--duration",
              "60s",
              "--fail-on",
              "high");
      assertThat(result.exitCode()).as(result.err() + result.out() + target.output()).isEqualTo(6);
      assertThat(result.err()).contains("stopped: a finding reached --fail-on high (high ");
      return result.out();
    }
  }

  /**
   * The line of the first high finding that starts with {@code title}, new or of another severity
   * before, which comes with the first or the second thread dump read (watching ends at the first
   * high finding): counted in dumps, not seconds, since a loaded machine makes dumps slow, and
   * watch paces them (an interval whose dump is older says {@code pinned now as of}).
   */
  private static String finding(String out, String title) {
    List<String> lines = out.lines().toList();
    List<Long> freshDumps =
        lines.stream()
            .filter(l -> l.contains("  pinned now ") && !l.contains("not known yet"))
            .filter(l -> !l.contains("pinned now as of"))
            .map(WatchDeadlocksTest::second)
            .toList();
    assertThat(freshDumps).as("a thread dump read:\n" + out).isNotEmpty();
    String line =
        lines.stream()
            // new, or seen before as possible and now certain
            .filter(
                l ->
                    l.contains("new finding [high] " + title)
                        || l.matches(
                            ".*finding now \\[high\\], was \\[\\w+\\] "
                                + Pattern.quote(title)
                                + ".*"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no finding " + title + ":\n" + out));
    // by the second dump at the latest (watching ends at the finding, maybe after the first)
    assertThat(second(line))
        .as(out)
        .isLessThanOrEqualTo(freshDumps.get(Math.min(1, freshDumps.size() - 1)));
    return line;
  }

  private static long second(String line) {
    Matcher m = AT.matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void namesALockCycleOfVirtualThreadsStuckAcrossDumps() throws Exception {
    String out = watch(TestRecordings.jdk24PlusJava(), "deadlock", "--variant", "reentrant-lock");

    assertThat(finding(out, "Stuck for at least"))
        .contains("over java.util.concurrent locks")
        .containsPattern(
            "holds-a-wants-b \\(virtual #\\d+ at dev\\.vtscope\\.workloads\\.LockOrderDeadlock\\.\\S+\\)"
                + " waits for java\\.util\\.concurrent\\.locks\\.ReentrantLock")
        .contains("holds-b-wants-a (virtual #");
  }

  /**
   * On JDK 21 no dump names a virtual thread's monitors: the series of watch's dumps shows the two
   * threads standing still where they enter monitors, each inside another.
   */
  @Test
  void namesAMonitorCycleOfVirtualThreadsOnJdk21FromTheSeries() throws Exception {
    String out = watch(TestRecordings.jdk21Java(), "deadlock", "--variant", "monitor");

    assertThat(finding(out, "Stuck for at least"))
        .contains("over monitors")
        .containsPattern(
            "holds-a-wants-b \\(virtual #\\d+, pinned at dev\\.vtscope\\.workloads\\.LockOrderDeadlock\\.\\S+\\)"
                + " waits to enter a monitor there")
        .contains("holds-b-wants-a (virtual #");
    assertThat(out).doesNotContain("Healthy");
  }

  @Test
  void namesTheCarrierStarvationDeadlockOfJdk21() throws Exception {
    String out = watch(TestRecordings.jdk21Java(), "carrier-starvation");

    assertThat(finding(out, ""))
        .contains("of the carriers: every one of the 2 carriers is pinned")
        .containsPattern("the 2 carriers are held by waiter-\\d \\(virtual #\\d+, pinned at")
        .contains("owned by no platform thread: probably by a virtual thread that needs a carrier");
    assertThat(out).doesNotContain("Healthy");
  }
}
