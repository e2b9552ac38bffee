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
   * This advice with {@code first} ahead of its own findings of each severity, most severe first (a
   * stable sort), and without its findings whose id is one of {@code replaced}: what a thread dump
   * shows now beside what the events showed.
   */
  Advice withFirst(List<Finding> first, java.util.Set<String> replaced, CarrierPool pool) {
    List<Finding> all = new java.util.ArrayList<>(first);
    for (Finding f : findings) {
      if (!replaced.contains(f.id())) {
        all.add(f);
      }
    }
    all.sort(
        java.util.Comparator.comparing(Finding::severity, java.util.Comparator.reverseOrder()));
    return new Advice(all, pool);
  }

  /**
   * This advice without its note that the recording is short: for a view of a recording that grows
   * as it is read ({@code watch}), whose length says nothing of what it missed.
   */
  public Advice withoutRecordingLength() {
    return new Advice(
        findings.stream().filter(f -> !f.id().equals(RecordingQualityRule.SHORT_ID)).toList(),
        carrierPool);
  }

  /**
   * For each of the {@code inputs} recordings of the analysis, its most severe finding (the first
   * of equals, in rank order), or null when it has none: a healthy recording of a report of several
   * whose others are not has none.
   */
  public List<Worst> worstByRecording(int inputs) {
    Finding[] worst = new Finding[inputs];
    Severity[] severity = new Severity[inputs];
    for (Finding f : findings) {
      if (f.spread() == null) {
        for (int i = 0; i < inputs; i++) {
          if (severity[i] == null || f.severity().compareTo(severity[i]) > 0) {
            worst[i] = f;
            severity[i] = f.severity();
          }
        }
        continue;
      }
      List<Integer> recordings = f.spread().recordings();
      for (int k = 0; k < recordings.size(); k++) {
        int i = recordings.get(k);
        Severity s = f.spread().severities().get(k);
        if (i < inputs && (severity[i] == null || s.compareTo(severity[i]) > 0)) {
          worst[i] = f;
          severity[i] = s;
        }
      }
    }
    List<Worst> each = new ArrayList<>(inputs);
    for (int i = 0; i < inputs; i++) {
      each.add(worst[i] == null ? null : new Worst(worst[i], severity[i]));
    }
    return each;
  }

  /**
   * A recording's most severe finding, and how severe it was there.
   *
   * @param finding the finding
   * @param severity its severity in that recording
   */
  public record Worst(Finding finding, Severity severity) {}

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
        byKey
            .computeIfAbsent(key, k -> new Spreading())
            .add(f, spread, identity(inputs.get(spread.worst())));
      }
      CarrierPool candidate = advices.get(i).carrierPool();
      if (candidate != null) {
        int recording = offsets[i] + Math.max(0, candidate.recording());
        dev.vtscope.analysis.InputFacts input = inputs.get(recording);
        dev.vtscope.analysis.Concurrency held =
            input.figures() == null ? null : input.figures().held();
        boolean worse =
            pool == null || dev.vtscope.analysis.Concurrency.worse(poolHeld, held) != poolHeld;
        // of equals, the same one whatever the order of the parts
        boolean equal =
            !worse
                && dev.vtscope.analysis.Concurrency.worse(held, poolHeld) == held
                && identity(input).compareTo(identity(inputs.get(pool.recording()))) < 0;
        if (worse || equal) {
          pool = candidate.forRecording(recording);
          poolHeld = held;
        }
      }
    }
    // ranked, and equals by their key, so that the order of the parts changes nothing
    List<java.util.Map.Entry<String, Spreading>> ranked = new ArrayList<>(byKey.entrySet());
    ranked.sort(
        (a, b) -> {
          int c = Advisor.RANK.compare(a.getValue().worst, b.getValue().worst);
          return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
    List<Finding> findings = new ArrayList<>();
    ranked.forEach(e -> findings.add(e.getValue().finding(total)));
    List<Finding> healthy = findings.stream().filter(Finding::healthy).toList();
    findings.removeAll(healthy);
    findings.addAll(0, healthy);
    return new Advice(findings, pool);
  }

  private static String identity(dev.vtscope.analysis.InputFacts input) {
    return input.figures() == null || input.figures().identity() == null
        ? input.name()
        : input.figures().identity();
  }

  /** One finding across the recordings that have it. */
  private static final class Spreading {
    private Finding worst;
    private int worstRecording;
    private String worstIdentity;
    private final java.util.TreeMap<Integer, Severity> severities = new java.util.TreeMap<>();

    void add(Finding f, Spread spread, String identity) {
      for (int k = 0; k < spread.recordings().size(); k++) {
        severities.put(spread.recordings().get(k), spread.severities().get(k));
      }
      // of equals, the recording first by identity: the same whatever the order of the parts
      int c = worst == null ? -1 : Advisor.RANK.compare(f, worst);
      if (c < 0 || (c == 0 && identity.compareTo(worstIdentity) < 0)) {
        worst = f;
        worstRecording = spread.worst();
        worstIdentity = identity;
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
