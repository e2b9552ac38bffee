package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Words;
import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.Samples;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadPrint;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.Deadlocks;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The findings of the sample dumps' deadlocks: the whole chain in the title, the fix per kind. */
class DeadlockFindingTest {

  private static List<Deadlock> found(String dir) throws IOException {
    ThreadDump print = ThreadPrint.parse(Samples.text(dir + "thread-print.txt"));
    return Deadlocks.find(DumpMerge.of(Samples.json(dir + "dump-to-file.json"), print));
  }

  /** {@code advice} of {@code recording}, beside dumps that show {@code found} and nothing else. */
  private static Advice withDeadlocks(Advice advice, Analysis recording, List<Deadlock> found) {
    return DumpAdvisor.addTo(advice, recording, new DumpsNow(null, null, found, null));
  }

  private static Finding only(String dir) throws IOException {
    List<Finding> findings = DeadlockFinding.of(found(dir));
    assertThat(findings).as(dir).hasSize(1);
    return findings.get(0);
  }

  /**
   * The pool's word that some carrier was always free gives way to the deadlock only where the
   * deadlock holds carriers: JDK 21's starvation does, JDK 25's monitor cycle of unmounted virtual
   * threads does not.
   */
  @Test
  void thePoolsAdviceSaysCarriersAreHeldOnlyWhereTheDeadlockHoldsThem() throws IOException {
    Analysis a =
        dev.vtscope.testing.Reports.analyze(
            "keep.jfr",
            dev.vtscope.testing.TestRecordings.repoRoot()
                .resolve("samples/jdk25/pinning-synchronized.jfr"),
            dev.vtscope.analysis.GroupBy.CULPRIT);
    Advice events = Advisor.standard().advise(a);
    assertThat(events.carrierPool().reasoning())
        .as("the events alone: some carrier was always free")
        .anyMatch(m -> m.key().startsWith("pool.keep"));

    Advice unmounted = withDeadlocks(events, a, found("jdk25/monitor-cycle/"));
    assertThat(unmounted.carrierPool()).isEqualTo(events.carrierPool());

    Advice starved = withDeadlocks(events, a, found("jdk21.0.8/carrier-starvation/"));
    assertThat(starved.carrierPool().reasoning())
        .noneMatch(m -> m.key().startsWith("pool.keep"))
        .anyMatch(m -> m.key().equals("pool.held-by-deadlock"));
  }

  @Test
  void aVirtualMonitorCycleIsAProvenDeadlockNamingBothThreadsAndLocks() throws IOException {
    Finding f = only("jdk25/monitor-cycle/");

    assertThat(f.id()).isEqualTo("deadlock");
    assertThat(f.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(f))
        .startsWith("Deadlock over monitors: ")
        .contains(
            "vt-monitor-A (virtual #17 at MonitorCycle.cycle(MonitorCycle.java:22)) waits for monitor"
                + " java.lang.Object@528d919 held by vt-monitor-B (virtual #20 at"
                + " MonitorCycle.cycle(MonitorCycle.java:22))")
        // named in full once, by name after
        .contains("; vt-monitor-B waits for monitor java.lang.Object@3a2f26d7 held by vt-monitor-A")
        .doesNotContain("held by vt-monitor-A (");
    assertThat(Words.explanation(f)).contains("never reports a chain with a virtual thread");
    assertThat(Words.actions(f)).first().asString().contains("one order everywhere");
    assertThat(f.classes()).containsExactly("MonitorCycle");
  }

  @Test
  void jdk21sCarrierStarvationSaysWhyThePinsNeverEndAndToUpgrade() throws IOException {
    Finding f = only("jdk21.0.8/carrier-starvation/");

    assertThat(f.id()).isEqualTo("carrier-starvation-deadlock");
    assertThat(f.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(f))
        .startsWith("Probable deadlock of the carriers: every one of the 2 carriers is pinned")
        .contains("the 2 carriers are held by vt-pinned-0 (virtual #16, pinned at")
        .contains("owned by no platform thread: probably by a virtual thread that needs a carrier")
        .contains("3 virtual threads wait for a carrier: vt-pinned-2");
    assertThat(Words.explanation(f))
        .contains(
            "vt-pinned-0, vt-pinned-1 hold their carriers while they wait: these pins never"
                + " end");
    assertThat(Words.actions(f).get(0)).contains("Upgrade to JDK 24 or later");
  }

  @Test
  void aClassInitStarvationTellsToMoveTheWaitOutOfTheInitialiser() throws IOException {
    Finding f = only("jdk25/class-init-all-carriers/");

    assertThat(f.id()).isEqualTo("class-init-deadlock");
    // one dump: the latch pt-init waits on is released by no one the dump names
    assertThat(f.severity()).isEqualTo(Severity.MEDIUM);
    assertThat(Words.title(f))
        .startsWith(
            "Possible deadlock of the carriers: every one of the 2 carriers waits for"
                + " ClassInitDeadlock$Gate's initialisation")
        .contains(
            "waits for ClassInitDeadlock$Gate's initialisation, run by pt-init (platform #16"
                + " at ClassInitDeadlock$Gate.<clinit>(ClassInitDeadlock.java:38))")
        .contains("; pt-init waits in java.util.concurrent.CountDownLatch.await")
        .contains("7 virtual threads wait for a carrier: vt-user-2 (virtual #22)")
        .contains(" and 4 more");
    assertThat(Words.actions(f).get(0))
        .contains("out of ClassInitDeadlock$Gate's static initialiser");
    assertThat(Words.actions(f)).anySatisfy(a -> assertThat(a).contains("JDK 26 or later"));
  }

  @Test
  void aLockChainStuckInASeriesSaysForHowLong() throws IOException {
    ThreadDump print = ThreadPrint.parse(Samples.text("jdk25/lock-cycle/thread-print.txt"));
    ThreadDump first = DumpMerge.of(Samples.json("jdk25/lock-cycle/dump-to-file.json"), print);
    ThreadDump later = first.withTakenAt(first.takenAt().plusSeconds(3));

    Finding once = DeadlockFinding.of(Deadlocks.find(first)).get(0);
    Finding stuck = DeadlockFinding.of(Deadlocks.find(List.of(first, later))).get(0);

    assertThat(once.severity()).isEqualTo(Severity.MEDIUM);
    assertThat(Words.title(once)).startsWith("Possible deadlock over java.util.concurrent locks");
    assertThat(stuck.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(stuck))
        .startsWith("Stuck for at least 3 s, over java.util.concurrent locks: ")
        .contains(
            "vt-lock-A (virtual #17 at LockCycle.cycle(LockCycle.java:24)) waits for"
                + " java.util.concurrent.locks.ReentrantLock$NonfairSync@7a5a5a09, whose owner the"
                + " dump does not name");
  }

  @Test
  void aDeadlockTakesTheHealthyVerdictAway() throws IOException {
    Analysis quiet = AnalysisBuilder.jdk(25).parallelism(2).build();
    Advice advice = Advisor.standard().advise(quiet);
    assertThat(advice.findings()).anySatisfy(f -> assertThat(f.id()).isEqualTo("healthy"));

    Advice withDeadlock = withDeadlocks(advice, quiet, found("jdk25/monitor-cycle/"));

    assertThat(withDeadlock.findings().get(0).id()).isEqualTo("deadlock");
    assertThat(withDeadlock.findings()).noneSatisfy(f -> assertThat(f.id()).isEqualTo("healthy"));
  }

  /** A deadlock is something seen: a short recording's note that nothing was goes. */
  @Test
  void aDeadlockTakesAShortRecordingsNothingSeenAway() throws IOException {
    Analysis quiet = AnalysisBuilder.jdk(21).parallelism(2).recorded(Duration.ofSeconds(2)).build();
    Advice advice = Advisor.standard().advise(quiet);
    assertThat(advice.findings()).anySatisfy(f -> assertThat(f.id()).isEqualTo("recording-short"));

    Advice withDeadlock = withDeadlocks(advice, quiet, found("jdk21.0.8/carrier-starvation/"));

    assertThat(withDeadlock.findings().get(0).severity()).isEqualTo(Severity.HIGH);
    assertThat(withDeadlock.findings())
        .noneSatisfy(f -> assertThat(f.id()).isIn("healthy", "recording-short"));
    assertThat(Words.reasoning(withDeadlock.carrierPool()))
        .noneMatch(line -> line.startsWith("No carrier was pinned"));
  }

  @Test
  void noDeadlockLeavesTheAdviceAsItIs() throws IOException {
    Analysis quiet = AnalysisBuilder.jdk(25).parallelism(2).build();
    Advice advice = Advisor.standard().advise(quiet);

    assertThat(withDeadlocks(advice, quiet, found("jdk25/carrier-starvation/"))).isSameAs(advice);
  }

  private static List<Deadlock> objectWait(dev.vtscope.waits.SchedulerLimits limits)
      throws Exception {
    java.nio.file.Path dir =
        dev.vtscope.testing.TestRecordings.repoRoot().resolve("samples/jdk21/dumps");
    ThreadDump dump =
        DumpMerge.of(
            dev.vtscope.threaddump.ThreadDumpFiles.read(
                dir.resolve("carrier-starvation-object-wait.dump.json")),
            dev.vtscope.threaddump.ThreadDumpFiles.read(
                dir.resolve("carrier-starvation-object-wait.thread-print.txt")));
    return Deadlocks.find(List.of(dump), limits, null, feature -> feature < 24);
  }

  /**
   * Every carrier the scheduler may start pinned in Object.wait(): the chain names where the
   * waiters wait and who cannot get a carrier, and the fixes are the code's first, the JDK's next,
   * a larger pool last, as a stopgap.
   */
  @Test
  void theHangAtTheMaxPoolSizeNamesTheWaitersTheThreadsWithoutACarrierAndTheFix() throws Exception {
    Finding f = DeadlockFinding.of(objectWait(new dev.vtscope.waits.SchedulerLimits(2, 4))).get(0);

    assertThat(f.id()).isEqualTo("carrier-starvation-deadlock");
    assertThat(f.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(f))
        .startsWith(
            "Probable deadlock of the carriers at the scheduler's maximum pool size: every one of"
                + " the 4 carriers (jdk.virtualThreadScheduler.maxPoolSize is 4) is pinned in"
                + " Object.wait()")
        .contains(
            "the 4 carriers are held by 4 virtual threads waiting at"
                + " dev.vtscope.workloads.CarrierStarvation$Permits.acquire(CarrierStarvation.java:")
        .containsPattern("waiter-0 \\(virtual #\\d+\\), waiter-1 \\(virtual #\\d+\\)")
        .contains("and 1 more")
        .contains("3 virtual threads wait for a carrier: ")
        .containsPattern(
            "notifier \\(virtual #\\d+ at"
                + " dev\\.vtscope\\.workloads\\.CarrierStarvation\\.lambda\\$atPoolMax\\$0");
    assertThat(Words.explanation(f))
        .contains("jdk.virtualThreadScheduler.maxPoolSize is 4 and the dump shows 4 carriers");
    assertThat(Words.actions(f)).hasSize(3);
    assertThat(Words.actions(f).get(0))
        .startsWith("Replace synchronized with wait() and notify()")
        .contains("CarrierStarvation$Permits.acquire")
        .contains("Condition, or a Semaphore");
    assertThat(Words.actions(f).get(1)).startsWith("Or upgrade to JDK 24 or later");
    assertThat(Words.actions(f).get(2))
        .startsWith("A larger jdk.virtualThreadScheduler.maxPoolSize (now 4) is a stopgap only");
    assertThat(f.classes()).containsExactly("dev.vtscope.workloads.CarrierStarvation$Permits");
  }

  /** Where nothing says the scheduler's maximum, one dump can only make it possible. */
  @Test
  void theHangAtAnUnknownMaxPoolSizeIsPossibleFromOneDump() throws Exception {
    Finding f = DeadlockFinding.of(objectWait(dev.vtscope.waits.SchedulerLimits.UNKNOWN)).get(0);

    assertThat(f.severity()).isEqualTo(Severity.MEDIUM);
    assertThat(Words.title(f))
        .startsWith(
            "Possible deadlock of the carriers: every one of the 4 carriers the dump shows is"
                + " pinned in Object.wait(), and the dump does not say whether the scheduler may"
                + " start more (one thread dump cannot tell it from a long wait)");
    assertThat(Words.explanation(f)).contains("The dump does not say the scheduler's maxPoolSize");
    assertThat(Words.actions(f)).last().asString().startsWith("Take another thread dump");
  }
}
