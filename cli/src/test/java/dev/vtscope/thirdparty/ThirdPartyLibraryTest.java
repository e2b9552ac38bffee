package dev.vtscope.thirdparty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.MonitorFrame;
import dev.vtscope.attribution.Owner;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recordings of real libraries from Maven Central, made on JDK 21, analysed with nothing but the
 * recording: the class files come from the recording's own java.class.path (here the test runner's
 * launcher jar, whose manifest lists the libraries). In each, the frame where the thread waited is
 * application code and the monitor is the library's, further down the stack.
 */
class ThirdPartyLibraryTest {

  private static Site worstSite(Path recording) {
    Analysis a = Reports.analyze("lib.jfr", recording, GroupBy.CULPRIT);
    assertThat(a.feature()).isEqualTo(21);
    assertThat(a.pinned().sites()).isNotEmpty();
    return a.pinned().sites().get(0);
  }

  @Test
  void aMonitorEnteredInsideTheJdkNamesTheJdkMethodAndTheCallingLine() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), "0ms", JdkMonitorContention.class.getName(), "8");
    Analysis a = Reports.analyze("jdk-monitor.jfr", recording, GroupBy.CULPRIT);
    assertThat(a.monitorEnter().sites()).isNotEmpty();
    Site entered = a.monitorEnter().sites().get(0);
    Culprit culprit = entered.attribution().culprit();
    assertThat(culprit.kind()).isEqualTo(CulpritKind.MONITOR_ENTER);
    assertThat(culprit.qualifiedMethod()).isEqualTo("java.util.Hashtable.put");
    assertThat(culprit.owner()).isEqualTo(Owner.JDK);
    assertThat(entered.attribution().calledFrom().qualifiedMethod())
        .isEqualTo(JdkMonitorContention.class.getName() + ".register");
    assertThat(Reports.text(a))
        .contains("blocked at java.util.Hashtable.put  monitor enter")
        .contains("called from " + JdkMonitorContention.class.getName() + ".register(");
  }

  @Test
  void log4jHoldsItsAppenderMonitorWhileTheApplicationsStreamBlocks() {
    Site site =
        worstSite(
            TestRecordings.recordTestProgram(
                TestRecordings.jdk21Java(), "0ms", Log4jSlowAppender.class.getName(), "30"));
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
    assertThat(culprit.qualifiedMethod()).isEqualTo("org.apache.log4j.AppenderSkeleton.doAppend");
    assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
    assertThat(culprit.artifact().display()).isEqualTo("log4j:log4j:1.2.17");
    // jfr view would blame the application's stream: where the thread waited.
    assertThat(site.topApplicationFrame().className()).endsWith("Log4jSlowAppender$SlowStream");
    assertThat(site.attribution().waitedAt()).isEqualTo(site.topApplicationFrame());
    assertThat(site.attribution().calledFrom().method()).isEqualTo("placeOrder");
    // Category.callAppenders holds the logger's monitor too: a synchronized block further down.
    assertThat(site.attribution().otherMonitorFrames())
        .extracting(
            m -> site.stack().frames().get(m.frameIndex()).qualifiedMethod(), MonitorFrame::kind)
        .contains(
            org.assertj.core.groups.Tuple.tuple(
                "org.apache.log4j.Category.callAppenders", CulpritKind.SYNCHRONIZED_BLOCK));
  }

  @Test
  void h2HoldsASessionMonitorInASynchronizedBlockWhileTheApplicationsFunctionBlocks() {
    Site site =
        worstSite(
            TestRecordings.recordTestProgram(
                TestRecordings.jdk21Java(), "0ms", H2SharedConnection.class.getName(), "30"));
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
    assertThat(culprit.qualifiedMethod()).isEqualTo("org.h2.command.Command.executeQuery");
    assertThat(culprit.lineRange()).isNotNull();
    assertThat(culprit.lineRange().first()).isLessThanOrEqualTo(culprit.line());
    assertThat(culprit.lineRange().last()).isGreaterThanOrEqualTo(culprit.line());
    assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
    assertThat(culprit.artifact().version()).isEqualTo("1.4.200");
    assertThat(site.topApplicationFrame().method()).isEqualTo("slowLookup");
    assertThat(culprit.frameIndex())
        .isGreaterThan(site.stack().frames().indexOf(site.topApplicationFrame()));
    assertThat(site.attribution().calledFrom().method()).isEqualTo("lookUp");
  }

  @Test
  void onJdk21TheFirstFindingNamesTheDriversMethodArtifactAndBothFixesWithTheirShares() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), "0ms", H2SharedConnection.class.getName(), "30");
    Analysis a = Reports.analyze("h2.jfr", recording, GroupBy.CULPRIT);
    List<Finding> findings = Advisor.standard().advise(a).findings();
    // The driver's monitor both pins the carrier of the thread inside it and holds the carriers of
    // the threads waiting to enter it, for about as long: either finding may come first. On a busy
    // machine the waits grow until every carrier is held at once, and the starvation that names
    // the driver as its largest holder comes first. Whichever leads names a method of the driver.
    assertThat(findings.get(0).id())
        .isIn("monitor-pinning", "monitor-contention", "carrier-starvation");
    assertThat(findings.get(0).methods()).anyMatch(m -> m.startsWith("org.h2."));
    Finding first =
        findings.stream().filter(f -> f.id().equals("monitor-pinning")).findFirst().orElseThrow();
    assertThat(Words.title(first)).startsWith("org.h2.command.Command.executeQuery pins carriers");
    assertThat(first.evidence())
        .anySatisfy(
            e -> {
              assertThat(e.label()).isEqualTo("artifact");
              assertThat(e.text()).contains("1.4.200");
            });
    long site =
        a.pinned().sites().stream()
            .filter(
                s ->
                    s.attribution()
                        .culprit()
                        .qualifiedMethod()
                        .equals("org.h2.command.Command.executeQuery"))
            .mapToLong(s -> s.durations().totalNanos())
            .sum();
    String share =
        String.format(java.util.Locale.ROOT, "%.0f%%", 100.0 * site / a.pinned().totalNanos());
    // The library's fixed release (from the data file, checked on both jars' bytecode) ...
    assertThat(Words.actions(first))
        .anySatisfy(
            x ->
                assertThat(x)
                    .startsWith("Upgrade com.h2database:h2 from 1.4.200 to 2.2.222 or later")
                    .contains("github.com/h2database"));
    // ... and the JDK upgrade, with the share of pinned time it removes.
    assertThat(Words.actions(first))
        .anySatisfy(
            x ->
                assertThat(x).startsWith("Upgrade to JDK 24 or later").contains("site's " + share));
  }

  @Test
  void onJdk25TheSameDriverIsHealthy() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk24PlusJava(), "0ms", H2SharedConnection.class.getName(), "30");
    Analysis a = Reports.analyze("h2-25.jfr", recording, GroupBy.CULPRIT);
    assertThat(a.feature()).isGreaterThanOrEqualTo(24);
    List<Finding> findings = Advisor.standard().advise(a).findings();
    // a carrier monopoly may only be the trace of a machine kept busy by other processes (the
    // operating system set a thread aside that long), as the recording's CPU load shows
    boolean busy = TestRecordings.machineWasBusy(recording);
    assertThat(findings)
        .allSatisfy(
            f ->
                assertThat(
                        f.severity() == Severity.INFO || busy && f.id().equals("carrier-monopoly"))
                    .as(Words.title(f))
                    .isTrue());
    assertThat(findings).extracting(Finding::id).doesNotContain("monitor-pinning");
    if (findings.stream().noneMatch(f -> f.id().equals("carrier-monopoly"))) {
      assertThat(findings)
          .filteredOn(f -> f.id().equals("healthy"))
          .singleElement()
          .satisfies(f -> assertThat(Words.title(f)).startsWith("Healthy: no pinning"));
    }
  }

  @Test
  void aSynchronousCacheHoldsTheJdksMonitorAndTheFixTargetsTheCacheNotTheJdk() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), "0ms", CaffeineSyncLoad.class.getName(), "20");
    Analysis a = Reports.analyze("caffeine.jfr", recording, GroupBy.CULPRIT);
    Site site = a.pinned().sites().get(0);
    Culprit culprit = site.attribution().culprit();
    assertThat(culprit.qualifiedMethod())
        .isEqualTo("java.util.concurrent.ConcurrentHashMap.compute");
    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
    assertThat(culprit.owner()).isEqualTo(Owner.JDK);
    // The actionable frame: the first frame outside the JDK that entered it, and its library.
    assertThat(site.attribution().calledFrom().className())
        .startsWith("com.github.benmanes.caffeine.cache.");
    // Caffeine's jar has no Maven metadata: its OSGi name and version say which it is.
    assertThat(site.attribution().calledFromArtifact().display()).contains("caffeine");
    assertThat(site.attribution().calledFromArtifact().version()).isEqualTo("3.1.8");
    assertThat(site.attribution().waitedAt().method()).isEqualTo("loadProfile");

    Finding first = Advisor.standard().advise(a).findings().get(0);
    assertThat(first.id()).isEqualTo("monitor-pinning");
    assertThat(Words.title(first))
        .contains("in the JDK, entered from com.github.benmanes.caffeine");
    // A JDK holder is never told to change its own code.
    assertThat(Words.actions(first))
        .noneMatch(x -> x.contains("ReentrantLock instead of the monitor"));
    assertThat(Words.actions(first))
        .anySatisfy(x -> assertThat(x).contains("In com.github.benmanes.caffeine.cache."));
    // and the library's own remedy, from the data file: no Caffeine release stops this.
    assertThat(Words.actions(first))
        .anySatisfy(
            x ->
                assertThat(x)
                    .startsWith("No fixed release of Caffeine")
                    .contains("AsyncLoadingCache"));
  }

  @Test
  void onJdk25TheSameCacheDoesNotPin() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk24PlusJava(), "0ms", CaffeineSyncLoad.class.getName(), "20");
    Analysis a = Reports.analyze("caffeine-25.jfr", recording, GroupBy.CULPRIT);
    // JEP 491: the loader's sleep inside ConcurrentHashMap.compute unmounts.
    assertThat(a.pinned().sites())
        .noneMatch(
            s ->
                s.attribution()
                    .culprit()
                    .qualifiedMethod()
                    .equals("java.util.concurrent.ConcurrentHashMap.compute"));
    // (the JVM loading Caffeine's classes on first use may pin for a moment: class-loading-pinning)
    assertThat(Advisor.standard().advise(a).findings())
        .extracting(Finding::id)
        .doesNotContain("monitor-pinning", "carrier-starvation");
  }
}
