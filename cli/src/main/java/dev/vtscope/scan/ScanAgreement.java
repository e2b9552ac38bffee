package dev.vtscope.scan;

import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a class path's scan and recordings of its program agree: the recorded sites the scan
 * predicted, the findings the recordings hit and how hard, and the risky findings they never hit.
 *
 * <p>A site is predicted, and the finding hit, when the culprit of a pinned, monitor-enter or
 * monitor-wait site is the finding's method (class and name) and, when the recording knows the
 * culprit's line and the scan the finding's lines, the line lies within them: a pin at another
 * {@code synchronized} block of the same method is not the one the scan found. Only culprits that
 * hold the carrier the way a scan finds (a monitor, a native frame, a class initialiser) are
 * matched; a CPU-bound run or a pin of unknown cause never is.
 *
 * @param scan the scan
 * @param predictions for each culprit of the sites that a finding predicts, that finding
 * @param hits for each finding hit, what the recordings attribute to it; in {@link #ranked()} order
 * @param ranked the scan's findings, those hit first by carrier time held (most first), then the
 *     rest in the scan's order
 */
public record ScanAgreement(
    ScanResult scan,
    Map<Culprit, ScanFinding> predictions,
    Map<ScanFinding, RecordedHit> hits,
    List<ScanFinding> ranked) {

  /** The sections of {@link Analysis#siteSections()} whose sites a scan can predict. */
  private static final List<String> SECTIONS = List.of("pinned", "monitor enter", "monitor wait");

  /** The culprits that hold a carrier the way a scan finds code doing it. */
  private static final Set<CulpritKind> MATCHED =
      EnumSet.of(
          CulpritKind.SYNCHRONIZED_METHOD,
          CulpritKind.SYNCHRONIZED_BLOCK,
          CulpritKind.MONITOR_ENTER,
          CulpritKind.MONITOR_WAIT,
          CulpritKind.NATIVE_METHOD,
          CulpritKind.FOREIGN_FUNCTION,
          CulpritKind.CLASS_INIT,
          CulpritKind.CLASS_INIT_WAIT);

  public ScanAgreement {
    predictions = Collections.unmodifiableMap(new HashMap<>(predictions));
    hits = Collections.unmodifiableMap(new LinkedHashMap<>(hits));
    ranked = List.copyOf(ranked);
  }

  /** Matches the pinned and monitor sites of {@code analysis} with the findings of {@code scan}. */
  public static ScanAgreement of(ScanResult scan, Analysis analysis) {
    Map<String, List<ScanFinding>> byMethod = new HashMap<>();
    for (ScanFinding f : scan.findings()) {
      byMethod.computeIfAbsent(f.qualifiedMethod(), k -> new ArrayList<>()).add(f);
    }
    Map<Culprit, ScanFinding> predictions = new HashMap<>();
    Map<ScanFinding, RecordedHit> hits = new HashMap<>();
    for (String section : SECTIONS) {
      for (Site site : analysis.siteSections().getOrDefault(section, List.of())) {
        Culprit culprit = site.attribution() == null ? null : site.attribution().culprit();
        ScanFinding f = culprit == null ? null : predicting(culprit, byMethod);
        if (f != null) {
          predictions.put(culprit, f);
          hits.merge(
              f,
              new RecordedHit(site.durations().count(), site.durations().totalNanos()),
              (a, b) -> a.plus(b.events(), b.pinnedNanos()));
        }
      }
    }
    List<ScanFinding> hit = new ArrayList<>(hits.keySet());
    // most carrier time first; a tie keeps the scan's order
    List<ScanFinding> scanOrder = scan.findings();
    Map<ScanFinding, Integer> position = new HashMap<>();
    for (int i = 0; i < scanOrder.size(); i++) {
      position.put(scanOrder.get(i), i);
    }
    hit.sort(
        (a, b) -> {
          int c = Long.compare(hits.get(b).pinnedNanos(), hits.get(a).pinnedNanos());
          return c != 0 ? c : Integer.compare(position.get(a), position.get(b));
        });
    List<ScanFinding> ranked = new ArrayList<>(hit);
    scanOrder.stream().filter(f -> !hits.containsKey(f)).forEach(ranked::add);
    Map<ScanFinding, RecordedHit> ordered = new LinkedHashMap<>();
    hit.forEach(f -> ordered.put(f, hits.get(f)));
    return new ScanAgreement(scan, predictions, ordered, ranked);
  }

  /**
   * The finding whose method is the culprit's, the first in the scan's order whose lines hold the
   * culprit's line when both are known; or null.
   */
  static ScanFinding predicting(Culprit c, Map<String, List<ScanFinding>> byMethod) {
    if (!MATCHED.contains(c.kind())) {
      return null;
    }
    for (ScanFinding f : byMethod.getOrDefault(c.qualifiedMethod(), List.of())) {
      if (c.line() < 0
          || f.lines() == null
          || (c.line() >= f.lines().first() && c.line() <= f.lines().last())) {
        return f;
      }
    }
    return null;
  }

  /** The finding that predicted {@code site}, or null. */
  public ScanFinding prediction(Site site) {
    return site.attribution() == null ? null : predictions.get(site.attribution().culprit());
  }

  /** What the recordings attribute to {@code finding}, or null when they did not hit it. */
  public RecordedHit hit(ScanFinding finding) {
    return hits.get(finding);
  }

  /**
   * The high and medium findings the recordings did not hit, in the scan's order: risks the
   * recorded load did not exercise.
   */
  public List<ScanFinding> notHit() {
    return scan.findings().stream()
        .filter(f -> f.severity().compareTo(Severity.MEDIUM) >= 0 && hit(f) == null)
        .toList();
  }
}
