package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Severity;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.LineRange;
import dev.vtscope.attribution.Owner;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which culprit a finding predicts, on hand-built findings and culprits. */
class ScanAgreementTest {

  private static ScanFinding finding(String method, LineRange lines, int score) {
    return new ScanFinding(
        Severity.HIGH,
        score,
        FindingKind.SYNCHRONIZED_BLOCK,
        "a:b:1",
        "b.jar",
        0,
        "com.acme.Pool",
        method,
        "()V",
        lines,
        List.of(),
        null,
        new Releases(21, 23),
        0,
        null,
        null);
  }

  private static Culprit culprit(String method, int line, CulpritKind kind) {
    return new Culprit("com.acme.Pool", method, line, kind, Owner.APPLICATION, null, null, 0, null);
  }

  @Test
  void aCulpritIsPredictedByTheFindingOfItsMethodWhoseLinesHoldItsLine() {
    ScanFinding first = finding("take", new LineRange(10, 12), 30);
    ScanFinding second = finding("take", new LineRange(20, 25), 20);
    Map<String, List<ScanFinding>> byMethod = Map.of("com.acme.Pool.take", List.of(first, second));

    assertThat(
            ScanAgreement.predicting(culprit("take", 21, CulpritKind.SYNCHRONIZED_BLOCK), byMethod))
        .isSameAs(second);
    assertThat(ScanAgreement.predicting(culprit("take", -1, CulpritKind.MONITOR_ENTER), byMethod))
        .as("no line: the riskiest of the method's findings")
        .isSameAs(first);
    assertThat(
            ScanAgreement.predicting(culprit("take", 15, CulpritKind.SYNCHRONIZED_BLOCK), byMethod))
        .as("another block of the same method")
        .isNull();
    assertThat(
            ScanAgreement.predicting(culprit("give", 11, CulpritKind.SYNCHRONIZED_BLOCK), byMethod))
        .isNull();
    assertThat(ScanAgreement.predicting(culprit("take", 11, CulpritKind.CPU_BOUND), byMethod))
        .as("a carrier held by running is not what a scan finds")
        .isNull();
  }
}
