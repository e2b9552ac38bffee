package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Runs the rules over an analysis and ranks what they find. */
public final class Advisor {

  private static final List<Rule> RULES =
      List.of(
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

  /** Findings first by carrier time at stake, then by severity; rule order breaks ties. */
  static final Comparator<Finding> RANK =
      Comparator.comparingLong(Finding::carrierNanos)
          .reversed()
          .thenComparing(Finding::severity, Comparator.reverseOrder());

  private final Knowledge knowledge;

  public Advisor(Knowledge knowledge) {
    this.knowledge = knowledge;
  }

  /** With the knowledge shipped in vtscope. */
  public static Advisor standard() {
    return new Advisor(Knowledge.standard());
  }

  public Advice advise(Analysis analysis) {
    List<Finding> findings = new ArrayList<>();
    for (Rule rule : RULES) {
      findings.addAll(rule.evaluate(analysis, knowledge));
    }
    findings.sort(RANK);
    findings.addAll(HealthyRule.evaluate(analysis, knowledge, findings));
    return new Advice(findings, CarrierPoolAdvisor.advise(analysis, knowledge, findings));
  }
}
