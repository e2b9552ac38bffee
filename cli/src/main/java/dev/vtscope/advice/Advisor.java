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
      return combine(analysis.parts(), each);
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

  /**
   * The advice of several parts (recordings, or reports of several), each with the advice made for
   * it, as one: the same finding (the same rule about the same classes and methods) of several
   * recordings is said once, with the severity and figures of the recording where it was worst, and
   * says which recordings have it. So adding healthy recordings never lowers a severity. The
   * healthy verdict stays only when every recording has it. The carrier-pool recommendation is that
   * of the recording that held most carriers at once. The same in any grouping of the parts.
   *
   * @param parts the parts, in the order of the report's inputs
   * @param advices the advice of each part, in the same order
   */
  public static Advice combine(List<Analysis> parts, List<Advice> advices) {
    List<dev.vtscope.analysis.InputFacts> inputs = new ArrayList<>();
    int[] offsets = new int[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      offsets[i] = inputs.size();
      inputs.addAll(parts.get(i).inputs());
    }
    int total = inputs.size();
    boolean allHealthy =
        advices.stream().allMatch(a -> a.findings().stream().anyMatch(Finding::healthy));
    java.util.Map<String, Spreading> byKey = new java.util.LinkedHashMap<>();
    CarrierPool pool = null;
    dev.vtscope.analysis.Concurrency poolHeld = null;
    for (int i = 0; i < advices.size(); i++) {
      java.util.Map<String, Integer> ordinals = new java.util.HashMap<>();
      for (Finding f : advices.get(i).findings()) {
        if (f.healthy() && !allHealthy) {
          continue;
        }
        // the same rule on the same code, counted within the part: a rule may find one place twice
        String base = f.id() + "|" + f.classes() + "|" + f.methods();
        String key = base + "#" + ordinals.merge(base, 1, Integer::sum);
        Spread spread =
            f.spread() != null
                ? f.spread().shifted(offsets[i], total)
                : Spread.one(offsets[i], f.severity());
        byKey.computeIfAbsent(key, k -> new Spreading()).add(f, spread);
      }
      CarrierPool candidate = advices.get(i).carrierPool();
      if (candidate != null) {
        int recording = offsets[i] + Math.max(0, candidate.recording());
        dev.vtscope.analysis.InputFacts input = inputs.get(recording);
        dev.vtscope.analysis.Concurrency held =
            input.figures() == null ? null : input.figures().held();
        if (pool == null || dev.vtscope.analysis.Concurrency.worse(poolHeld, held) != poolHeld) {
          pool = candidate.forRecording(recording);
          poolHeld = held;
        }
      }
    }
    List<Finding> findings = new ArrayList<>();
    byKey.values().forEach(s -> findings.add(s.finding(total)));
    findings.sort(RANK);
    List<Finding> healthy = findings.stream().filter(Finding::healthy).toList();
    findings.removeAll(healthy);
    findings.addAll(0, healthy);
    return new Advice(findings, pool);
  }

  /** One finding across the recordings that have it. */
  private static final class Spreading {
    private Finding worst;
    private int worstRecording;
    private final java.util.TreeMap<Integer, Severity> severities = new java.util.TreeMap<>();

    void add(Finding f, Spread spread) {
      for (int k = 0; k < spread.recordings().size(); k++) {
        severities.put(spread.recordings().get(k), spread.severities().get(k));
      }
      // the first of equals stays, whatever the grouping of the parts
      if (worst == null || RANK.compare(f, worst) < 0) {
        worst = f;
        worstRecording = spread.worst();
      }
    }

    Finding finding(int total) {
      return worst.withSpread(
          new Spread(
              new ArrayList<>(severities.keySet()),
              new ArrayList<>(severities.values()),
              worstRecording,
              total));
    }
  }
}
