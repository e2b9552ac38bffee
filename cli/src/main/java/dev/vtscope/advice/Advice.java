package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import java.util.ArrayList;
import java.util.List;

/**
 * What to change: findings, most severe first, and the carrier-pool recommendation.
 *
 * @param findings ranked findings; never empty for a recording of JDK 21 or later
 * @param carrierPool the recommendation, or null when the recording has no virtual threads or no
 *     scheduler facts
 */
public record Advice(List<Finding> findings, CarrierPool carrierPool) {

  public Advice {
    findings = List.copyOf(findings);
  }

  /**
   * The most severe finding of the recording at {@code input} of the analysis' inputs (the first of
   * equals, in rank order), or null when it has none: a healthy recording of a report of several
   * whose others are not has no finding.
   */
  public Finding worstIn(int input) {
    Finding worst = null;
    for (Finding f : findings) {
      Severity s = severityIn(f, input);
      if (s != null && (worst == null || s.compareTo(severityIn(worst, input)) > 0)) {
        worst = f;
      }
    }
    return worst;
  }

  /** How severe {@code finding} is in the recording at {@code input}; null when not found there. */
  public static Severity severityIn(Finding finding, int input) {
    return finding.spread() == null ? finding.severity() : finding.spread().severityIn(input);
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
    if (parts.size() == 1) {
      return advices.get(0); // a part is already said as one
    }
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
    findings.sort(Advisor.RANK);
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
      if (worst == null || Advisor.RANK.compare(f, worst) < 0) {
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
