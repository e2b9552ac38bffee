package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every rule on a real recording: the reference samples (made by the workloads on JDK 21 and 25)
 * and fresh recordings made here.
 */
class AdviceTest {

  private static Analysis sample(String name) {
    Path file = TestRecordings.repoRoot().resolve("samples").resolve(name);
    return Reports.analyze(name, file, GroupBy.CULPRIT);
  }

  private static Advice advise(Analysis a) {
    return Advisor.standard().advise(a);
  }

  private static List<String> ids(Advice advice) {
    return advice.findings().stream().map(Finding::id).toList();
  }

  @Test
  void monitorPinningOnJdk21NamesTheHolderAndBothFixesWithTheirShares() {
    Analysis a = sample("jdk21/pinning-synchronized.jfr");
    Finding first = advise(a).findings().get(0);

    assertThat(first.id()).isEqualTo("monitor-pinning");
    assertThat(first.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(first))
        .startsWith("dev.vtscope.workloads.SharedLockPinning.withMonitor ");
    assertThat(first.classes()).containsExactly("dev.vtscope.workloads.SharedLockPinning");
    assertThat(Words.actions(first))
        .anySatisfy(action -> assertThat(action).startsWith("Hold a java.util.concurrent"))
        .anySatisfy(
            action ->
                assertThat(action)
                    .startsWith("Upgrade to JDK 24 or later")
                    .contains("100% of the recorded pinned time"));
    // Carrier time: the pins plus the monitor enters of the threads queued on the same lock.
    long enters = a.monitorEnter().durations().totalNanos();
    assertThat(first.carrierNanos()).isEqualTo(a.pinned().totalNanos() + enters);
    assertThat(first.jdks()).isEqualTo("21-23");
  }

  @Test
  void findingsAreRankedBySeverityThenCarrierTimeOnEverySample() {
    for (Path file : TestRecordings.samples()) {
      Advice advice = advise(Reports.analyze(file.toString(), file, GroupBy.CULPRIT));
      assertThat(advice.findings()).as(file.toString()).isNotEmpty();
      // the healthy verdict, when there is one, leads the notes about the recording
      List<Finding> ranked =
          advice.findings().stream().filter(f -> !f.id().equals("healthy")).toList();
      assertThat(ranked)
          .as(file + " ranked by severity, then carrier time")
          .isSortedAccordingTo(
              java.util.Comparator.comparing(Finding::severity, java.util.Comparator.reverseOrder())
                  .thenComparing(
                      java.util.Comparator.comparingLong(Finding::carrierNanos).reversed()));
      if (ranked.size() < advice.findings().size()) {
        assertThat(advice.findings().get(0).id()).isEqualTo("healthy");
      }
    }
  }

  @Test
  void starvationSaysHowLongEveryCarrierWasHeld() {
    Analysis a = sample("jdk21/pinning-synchronized-method.jfr");
    Finding starvation =
        advise(a).findings().stream()
            .filter(f -> f.id().equals("carrier-starvation"))
            .findFirst()
            .orElseThrow();
    // On JDK 21 one carrier is pinned while the other waits to enter the same monitor: pins alone
    // never reach parallelism 2, carriers held do.
    assertThat(a.pinned().concurrency().peak()).isEqualTo(1);
    assertThat(a.carriers().peak()).isEqualTo(2);
    assertThat(starvation.carrierNanos()).isEqualTo(a.carriers().saturatedNanos()).isPositive();
    assertThat(Words.title(starvation))
        .contains(dev.vtscope.analysis.HumanDurations.format(a.carriers().saturatedNanos()));
  }

  @Test
  void aWaitNotifyPoolOnJdk21IsSeenWithZeroPinnedEvents() {
    Analysis a = sample("jdk21/connection-pool-wait-notify.jfr");
    assertThat(a.pinned().events()).isZero();
    Finding first = advise(a).findings().get(0);
    assertThat(first.id()).isEqualTo("carrier-compensation");
    assertThat(first.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(first))
        .contains("ConnectionPoolStall$MonitorPool.checkout")
        .contains("start " + a.scheduler().carriersStarted() + " carriers");
    assertThat(Words.actions(first)).anySatisfy(x -> assertThat(x).contains("Semaphore"));
    assertThat(Words.explanation(first)).contains("not one pinned event");
  }

  @Test
  void nativeAndForeignPinningSayThatAnUpgradeDoesNotHelp() {
    Finding first = advise(sample("jdk25/native-pinning.jfr")).findings().get(0);
    assertThat(first.id()).isEqualTo("native-pinning");
    assertThat(Words.title(first)).contains("ForeignCallPinning").contains("foreign-function call");
    assertThat(Words.actions(first)).anySatisfy(x -> assertThat(x).contains("does not help"));
    assertThat(first.jdks()).isEqualTo("21+");
  }

  @Test
  void starvationNamesTheCodeToFixNotTheJdksWarmUp() {
    // Every pin recorded: the foreign-function workload also initialises JDK classes on the
    // virtual threads (jdk.internal.foreign.*, java.lang.invoke.*), pinning for a moment.
    Path all =
        TestRecordings.recordWorkload(
            TestRecordings.jdk24PlusJava(),
            "0ms",
            "native-pinning",
            "--threads",
            "4",
            "--block",
            "25ms");
    Analysis a = Reports.analyze("native.jfr", all, GroupBy.CULPRIT);
    Finding starvation =
        advise(a).findings().stream()
            .filter(f -> f.id().equals("carrier-starvation"))
            .findFirst()
            .orElseThrow();
    assertThat(Words.actions(starvation).get(0))
        .contains("ForeignCallPinning.sortNatively")
        .doesNotContain("jdk.internal.")
        .doesNotContain("java.lang.");
  }

  @Test
  void classLoadingByTheJvmIsOneFindingThatNamesTheSlowLoader() {
    // JDK 24+: the pinned reason is "Freeze or preempt failed", the stack shows the loader call.
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk24PlusJava(), "0ms", SlowClassLoading.class.getName(), "8");
    Analysis a = Reports.analyze("loading.jfr", recording, GroupBy.CULPRIT);
    Site loaderSite =
        a.pinned().sites().stream()
            .filter(s -> s.stack().frames().get(0).className().equals("java.lang.VirtualThread"))
            .findFirst()
            .orElseThrow();
    assertThat(loaderSite.reason()).startsWith("Freeze or preempt failed");
    assertThat(loaderSite.attribution().culprit().kind()).isEqualTo(CulpritKind.CLASS_LOADING);
    assertThat(loaderSite.attribution().culprit().qualifiedMethod())
        .isEqualTo("java.lang.ClassLoader.loadClass");
    assertThat(loaderSite.attribution().culprit().detail())
        .contains("through " + SlowClassLoading.class.getName() + "$SlowLoader");
    // A slow loader of the application's is worth fixing, not warm-up to look past.
    assertThat(loaderSite.attribution().culprit().isWarmUp(loaderSite.stack().frames())).isFalse();
    List<Finding> findings = advise(a).findings();
    assertThat(findings).extracting(Finding::id).doesNotContain("unexplained-pinning");
    Finding first = findings.get(0);
    assertThat(first.id()).isEqualTo("class-loading-pinning");
    assertThat(first.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.explanation(first))
        .contains("first uses in " + SlowClassLoading.class.getName());
    assertThat(Words.actions(first))
        .anySatisfy(x -> assertThat(x).startsWith("Make " + SlowClassLoading.class.getName()));
  }

  @Test
  void onJdk25AVirtualThreadWaitingForAMonitorWritesNoEvent() throws Exception {
    // What the healthy finding says on JDK 24+: 200 tasks queued on one lock, with
    // jdk.JavaMonitorEnter enabled at 20 ms, and not one event.
    Path recording = TestRecordings.repoRoot().resolve("samples/jdk25/pinning-synchronized.jfr");
    Analysis a = sample("jdk25/pinning-synchronized.jfr");
    assertThat(a.settings().monitorEnterEnabled()).isTrue();
    assertThat(a.settings().monitorEnterThresholdNanos()).isEqualTo(20_000_000L);
    long enters = 0;
    try (jdk.jfr.consumer.RecordingFile file = new jdk.jfr.consumer.RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        if (file.readEvent().getEventType().getName().equals("jdk.JavaMonitorEnter")) {
          enters++;
        }
      }
    }
    assertThat(enters).isZero();
    assertThat(Words.explanation(advise(a).findings().get(0)))
        .contains("writes no jdk.JavaMonitorEnter event");
  }

  @Test
  void classInitialisationNamesTheClassToInitialiseEarly() {
    Finding first = advise(sample("jdk25/class-init.jfr")).findings().get(0);
    assertThat(first.id()).isEqualTo("class-init-pinning");
    assertThat(first.classes()).containsExactly("dev.vtscope.workloads.ClassInitPinning$SlowInit");
    assertThat(Words.actions(first))
        .anySatisfy(
            x ->
                assertThat(x)
                    .contains("Class.forName(\"dev.vtscope.workloads.ClassInitPinning$SlowInit\""));
  }

  @Test
  void submitFailuresSayWhatTheMessageMeans() {
    Analysis a = sample("jdk21/submit-failed.jfr");
    Finding first = advise(a).findings().get(0);
    assertThat(first.id()).isEqualTo("submit-failed");
    assertThat(first.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(first))
        .contains("rejected 50 virtual-thread tasks")
        .endsWith("scheduler-shut-down");
    assertThat(Words.actions(first)).anySatisfy(x -> assertThat(x).contains("lifecycle"));
  }

  @Test
  void theFixedTwinIsHealthyAndSaysWhatWasChecked() {
    Advice advice = advise(sample("jdk21/pinning-reentrant-lock.jfr"));
    assertThat(ids(advice)).contains("healthy").doesNotContain("monitor-pinning");
    Finding healthy = advice.findings().get(0);
    assertThat(Words.title(healthy))
        .startsWith("Healthy: no pinning")
        .contains("no carriers held on monitors")
        .contains("on JDK 21");
    assertThat(advice.carrierPool().change()).isFalse();
  }

  @Test
  void aHolderCutOffByATruncatedStackIsSaidToBeBeyondIt() {
    // JDK 21, stacks of 5 frames: the synchronized block is below them.
    Path shallow =
        TestRecordings.recordWorkload(
            TestRecordings.jdk21Java(),
            List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            List.of("-XX:FlightRecorderOptions:stackdepth=5"),
            "pinning",
            "--tasks",
            "6");
    Analysis a = Reports.analyze("shallow.jfr", shallow, GroupBy.CULPRIT);
    Site site = a.pinned().sites().get(0);
    assertThat(site.attribution().culprit().kind()).isEqualTo(CulpritKind.UNKNOWN);
    assertThat(site.attribution().culprit().detail())
        .contains("the stack was truncated")
        .contains("probably beyond it")
        .doesNotContain("not in the recorded stack");
    Finding unexplained =
        advise(a).findings().stream()
            .filter(f -> f.id().equals("unexplained-pinning"))
            .findFirst()
            .orElseThrow();
    // vtscope read every recorded frame's class: --classpath would not help, deeper stacks would.
    assertThat(Words.actions(unexplained)).hasSize(1);
    assertThat(Words.actions(unexplained).get(0)).startsWith("Re-record with deeper stacks");
    assertThat(Reports.text(a))
        .contains("<- nearest frame to the cause, which is unknown")
        .doesNotContain("holds the carrier (cause unknown)");
  }

  @Test
  void recordingQualityNamesTheOptionsToRecordWith() {
    Path shallow =
        TestRecordings.recordWorkload(
            TestRecordings.currentJava(),
            List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            List.of("-XX:FlightRecorderOptions:stackdepth=3"),
            "class-init",
            "--threads",
            "2",
            "--init",
            "30ms");
    Finding truncated =
        advise(Reports.analyze("shallow.jfr", shallow, GroupBy.CULPRIT)).findings().stream()
            .filter(f -> f.id().equals("recording-truncated-stacks"))
            .findFirst()
            .orElseThrow();
    assertThat(Words.title(truncated)).contains("at depth 3");
    assertThat(Words.actions(truncated))
        .containsExactly("Re-record with -XX:FlightRecorderOptions:stackdepth=256");
    assertThat(truncated.notes()).containsExactly("truncated-stacks");

    Advice disabled =
        advise(
            Reports.analyze(
                "off.jfr", TestRecordings.classInitWithPinnedEventOff(), GroupBy.CULPRIT));
    assertThat(ids(disabled)).contains("recording-pinned-disabled").doesNotContain("healthy");
    assertThat(disabled.findings())
        .filteredOn(f -> f.id().equals("recording-pinned-disabled"))
        .singleElement()
        .satisfies(
            f ->
                assertThat(Words.actions(f).get(0))
                    .contains("jdk.VirtualThreadPinned#enabled=true"));
  }

  @Test
  void aPoolOfPerTaskPinsOnJdk21GetsALargerPoolButASharedLockDoesNot() {
    Path perTask =
        TestRecordings.recordWorkload(
            TestRecordings.jdk21Java(),
            List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            List.of("-Djdk.virtualThreadScheduler.parallelism=2"),
            "pinning-per-task",
            "--tasks",
            "60");
    Analysis a = Reports.analyze("per-task.jfr", perTask, GroupBy.CULPRIT);
    CarrierPool pool = advise(a).carrierPool();
    assertThat(pool.current().parallelism()).isEqualTo(2);
    assertThat(pool.change()).isTrue();
    // cpus + carriers held at p99 (capped by the pool at 2).
    assertThat(pool.recommended().parallelism()).isEqualTo(a.cpus() + pool.p99());
    assertThat(pool.javaOptions())
        .isEqualTo("-Djdk.virtualThreadScheduler.parallelism=" + pool.recommended().parallelism());
    assertThat(Words.reasoning(pool)).anySatisfy(r -> assertThat(r).contains("only buys time"));

    CarrierPool shared = advise(sample("jdk21/pinning-synchronized.jfr")).carrierPool();
    assertThat(shared.change()).isFalse();
    assertThat(Words.reasoning(shared)).anySatisfy(r -> assertThat(r).contains("queue on it too"));
  }

  @Test
  void theQuantileLevelIsTheLevelExceededAtMostOnePercentOfTheTime() {
    var c = new dev.vtscope.analysis.Concurrency(3, 5, 3, List.of(0L, 50L, 40L, 5L));
    assertThat(CarrierPoolAdvisor.quantileLevel(c, 1000, 0.99)).isEqualTo(2);
    assertThat(CarrierPoolAdvisor.quantileLevel(c, 100_000, 0.99)).isEqualTo(0);
    assertThat(CarrierPoolAdvisor.quantileLevel(c, 100, 0.99)).isEqualTo(3);
  }

  @Test
  void knowledgeFindsLibrariesAndComparesVersions() {
    Knowledge k = Knowledge.standard();
    assertThat(k.library("org.postgresql.core.v3.QueryExecutorImpl"))
        .hasValueSatisfying(l -> assertThat(l.fixedIn()).isEqualTo("42.6.0"));
    assertThat(k.library("com.acme.Foo")).isEmpty();
    assertThat(Facts.compareVersions("42.2.27", "42.6.0")).isNegative();
    assertThat(Facts.compareVersions("9.0.0", "9")).isZero();
    assertThat(Facts.compareVersions("1.4.200", "1.4.199")).isPositive();
    Artifact maven =
        new Artifact("org.postgresql:postgresql", "42.2.27", Artifact.Source.MAVEN, "p.jar");
    assertThat(Facts.version(maven)).isEqualTo("42.2.27");
    assertThat(maven.display()).isEqualTo("org.postgresql:postgresql:42.2.27");
    Artifact manifest =
        new Artifact("PostgreSQL JDBC Driver", "42.2.27", Artifact.Source.MANIFEST, "p.jar");
    assertThat(Facts.version(manifest)).isEqualTo("42.2.27");
    assertThat(manifest.display()).isEqualTo("PostgreSQL JDBC Driver:42.2.27");
    assertThat(Facts.version(new Artifact("x", "unknown", Artifact.Source.MANIFEST, "x.jar")))
        .isNull();
    assertThat(k.submitFailure("Queue capacity exceeded"))
        .hasValueSatisfying(m -> assertThat(m.id()).isEqualTo("queue-full"));
  }
}
