package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Runs the rules over an analysis and ranks what they find. */
public final class Advisor {

  private static final List<Rule> RULES =
      List.of(
          new PinnedAtEndRule(),
          new DeadlockAtEndRule(),
          new MonitorPinningRule(),
          new ContendedMonitorRule(),
          new NativePinningRule(),
          new ClassInitRule(),
          new ClassLoadingRule(),
          new UnexplainedPinningRule(),
          new CarrierStarvationRule(),
          new CompensationRule(),
          new CarrierMonopolyRule(),
          new FileIoRule(),
          new SubmitFailureRule(),
          new RecordingQualityRule());

  /**
   * Findings most severe first, then by carrier time at stake; rule order breaks ties. Severity
   * first: a scheduler that rejected tasks holds no carrier time, yet matters more than a note.
   */
  // By hand, not with Comparator.comparing: that makes a class at start-up (a serializable
  // lambda) that no class-data archive keeps.
  static final Comparator<Finding> RANK =
      (a, b) -> {
        int c = b.severity().compareTo(a.severity());
        return c != 0 ? c : Long.compare(b.carrierNanos(), a.carrierNanos());
      };

  private final Knowledge knowledge;

  public Advisor(Knowledge knowledge) {
    this.knowledge = knowledge;
  }

  /** With the knowledge shipped in vtscope. */
  public static Advisor standard() {
    return new Advisor(Knowledge.standard());
  }

  /**
   * The advice for {@code analysis}: for one recording, what the rules find; for several, what they
   * find in each recording, as {@link #combine} puts it together.
   */
  public Advice advise(Analysis analysis) {
    if (!analysis.parts().isEmpty()) {
      List<Advice> each = new ArrayList<>(analysis.parts().size());
      for (Analysis part : analysis.parts()) {
        each.add(advise(part));
      }
      return Advice.combine(analysis.parts(), each);
    }
    List<Finding> findings = new ArrayList<>();
    for (Rule rule : RULES) {
      findings.addAll(rule.evaluate(analysis, knowledge));
    }
    findings.sort(RANK);
    // the verdict first: when the recording is healthy, the rest are notes about it
    findings.addAll(0, HealthyRule.evaluate(analysis, knowledge, findings));
    return new Advice(findings, CarrierPoolAdvisor.advise(analysis, knowledge, findings));
  }
}
