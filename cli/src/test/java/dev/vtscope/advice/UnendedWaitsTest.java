package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.StuckPoolProgram;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JDK 21 JVM whose virtual threads wait in {@code Object.wait()} for a pool object that never
 * comes back, recorded by a real JVM: no wait ends, so no monitor wait event is written, yet the
 * scheduler started carriers for them up to maxPoolSize, which their start stacks show. The report
 * must not call it healthy.
 */
class UnendedWaitsTest {

  @Test
  void carriersStartedForWaitsThatNeverEndedAreAFinding() {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(),
            List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            List.of(
                "-Djdk.virtualThreadScheduler.parallelism=2",
                "-Djdk.virtualThreadScheduler.maxPoolSize=8"),
            StuckPoolProgram.class.getName());
    Analysis a = Reports.analyze("stuck-pool.jfr", recording, GroupBy.CULPRIT);
    assertThat(a.monitorWait().events()).as("no wait ended").isZero();
    assertThat(a.scheduler().carriersStarted()).isGreaterThan(2);
    List<Finding> findings = Advisor.standard().advise(a).findings();
    assertThat(findings).noneMatch(Finding::healthy);
    Finding compensation =
        findings.stream()
            .filter(f -> f.id().equals(CompensationRule.ID))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no compensation finding in " + findings));
    assertThat(compensation.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(compensation)).contains("StuckPoolProgram.borrow");
    assertThat(Words.explanation(compensation)).contains("no wait had ended");
  }
}
