package dev.vtscope.thirdparty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.MonitorFrame;
import dev.vtscope.attribution.Owner;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
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
  void log4jHoldsItsAppenderMonitorWhileTheApplicationsStreamBlocks() {
    Site site =
        worstSite(
            TestRecordings.recordTestProgram(
                TestRecordings.jdk21Java(), "0ms", Log4jSlowAppender.class.getName(), "30"));
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
    assertThat(culprit.qualifiedMethod()).isEqualTo("org.apache.log4j.AppenderSkeleton.doAppend");
    assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
    assertThat(culprit.artifact().coordinates()).isEqualTo("log4j:log4j:1.2.17");
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
    assertThat(culprit.artifact().coordinates()).contains("1.4.200");
    assertThat(site.topApplicationFrame().method()).isEqualTo("slowLookup");
    assertThat(culprit.frameIndex())
        .isGreaterThan(site.stack().frames().indexOf(site.topApplicationFrame()));
    assertThat(site.attribution().calledFrom().method()).isEqualTo("lookUp");
  }
}
