package dev.vtscope.live;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The answer of {@code jcmd PID Thread.vthread_scheduler}, as JDK 25 writes it. */
class SchedulerCountsTest {

  @Test
  void readsTheBeansCountsFromThePool() {
    // JDK 25, 7 spinning virtual threads on 2 carriers; the bean said mounted=2 queued=5
    String answer =
        "java.util.concurrent.ForkJoinPool@13d10022[Running, parallelism = 2, size = 2, active = 2,"
            + " running = 0, steals = 2, tasks = 0, submissions = 5]\n";
    assertThat(SchedulerCounts.parse(answer)).contains(new SchedulerCounts(2, 2, 2, 5));
  }

  @Test
  void noCountsInAnErrorAnswer() {
    assertThat(
            SchedulerCounts.parse("java.lang.IllegalArgumentException: Unknown diagnostic command"))
        .isEmpty();
  }
}
