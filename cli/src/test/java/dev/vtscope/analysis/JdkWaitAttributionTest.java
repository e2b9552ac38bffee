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
      assertThat(f.actions())
          .as(f.id())
          .noneMatch(action -> action.contains("Replace wait()/notify() in the JDK"))
          .noneMatch(action -> action.contains("Replace wait()/notify() in java.lang"));
    }
  }
}
