package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.Owner;
import dev.vtscope.testing.JdkWaitProgram;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A wait in the JDK's own code is named as the JDK's, with the frame that called in, and its advice
 * targets that frame: on JDK 21 a virtual thread joining a platform thread waits in Object.wait
 * inside Thread.join.
 */
class JdkWaitAttributionTest {

  @Test
  void aWaitInJdkCodeIsTheJdksAndTheAdviceTargetsTheCaller() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), "0ms", JdkWaitProgram.class.getName());
    Analysis a = Reports.analyze("jdk-wait.jfr", recording, GroupBy.CULPRIT);
    assertThat(a.monitorWait()).isNotNull();
    assertThat(a.monitorWait().sites()).isNotEmpty();
    Attribution wait = a.monitorWait().sites().get(0).attribution();
    assertThat(wait.culprit().kind()).isEqualTo(CulpritKind.MONITOR_WAIT);
    assertThat(wait.culprit().qualifiedMethod()).isEqualTo("java.lang.Thread.join");
    assertThat(wait.culprit().owner()).isEqualTo(Owner.JDK);
    assertThat(wait.calledFrom()).isNotNull();
    assertThat(wait.calledFrom().qualifiedMethod())
        .isEqualTo("dev.vtscope.testing.JdkWaitProgram.awaitWorker");

    for (Finding f : Advisor.standard().advise(a).findings()) {
      assertThat(Words.actions(f))
          .as(f.id())
          .noneMatch(action -> action.contains("Replace wait()/notify() in the JDK"))
          .noneMatch(action -> action.contains("Replace wait()/notify() in java.lang"));
    }
  }

  @Test
  void aWaitInALibraryIsTheLibrarysAndTheAdviceDoesNotAskToRewriteIt() throws Exception {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(),
            "0ms",
            dev.vtscope.testing.app.LibraryWaitProgram.class.getName());
    Analysis a =
        new Analyzer(
                dev.vtscope.recording.ReaderKind.VTSCOPE.create(),
                new AnalysisOptions(
                    GroupBy.CULPRIT,
                    java.util.List.of(),
                    // the program is the application; its pool stands for a library
                    java.util.List.of("dev.vtscope.testing.app"),
                    Reports::installedJdks))
            .analyze(
                java.util.List.of(
                    new dev.vtscope.recording.RecordingInput(
                        "library-wait", java.util.List.of(recording), false)));
    Attribution wait = a.monitorWait().sites().get(0).attribution();
    assertThat(wait.culprit().qualifiedMethod())
        .isEqualTo("dev.vtscope.testing.pool.TinyPool.borrow");
    assertThat(wait.culprit().owner()).isEqualTo(Owner.LIBRARY);

    Finding compensation =
        Advisor.standard().advise(a).findings().stream()
            .filter(f -> f.id().equals("carrier-compensation"))
            .findFirst()
            .orElseThrow();
    assertThat(Words.actions(compensation).get(0)).startsWith("Upgrade to JDK 24");
    assertThat(Words.actions(compensation).get(1))
        .contains("The wait is inside")
        .contains("TinyPool.borrow")
        .contains("LibraryWaitProgram.useConnection(")
        .contains("Semaphore");
    assertThat(Words.actions(compensation))
        .noneMatch(action -> action.startsWith("Replace wait()"));
  }
}
