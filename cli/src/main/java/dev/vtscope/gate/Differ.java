package dev.vtscope.gate;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Matches sites of two analyses by culprit (kind and method, not line numbers, which move between
 * builds) and classifies each: fixed, new, better, worse, same, or hidden by the other side's
 * threshold. Pinned sites are compared only when both recordings could record pins.
 */
public final class Differ {

  /** Changes smaller than this are noise, whatever the relative change. */
  static final long MIN_CHANGE_NANOS = 1_000_000;

  private Differ() {}

  public static DiffResult diff(Analysis before, Analysis after, double tolerance) {
    return diff(before, after, tolerance, AllowList.NONE);
  }

  /**
   * Compares two analyses; culprits {@code allow} matches are listed but never a regression.
   *
   * @param tolerance relative change of total time that still counts as the same, e.g. 0.1
   */
  public static DiffResult diff(
      Analysis before, Analysis after, double tolerance, AllowList allow) {
    Map<String, List<Site>> beforeSections = sections(before);
    Map<String, List<Site>> afterSections = sections(after);
    if (!pinningCompared(before, after)) {
      // a side that could record no pin would read every pinned site of the other as fixed or new
      beforeSections.remove("pinned");
      afterSections.remove("pinned");
    }
    List<SiteChange> changes = new ArrayList<>();
    for (String name : beforeSections.keySet()) {
      changes.addAll(
          section(
              name,
              beforeSections.get(name),
              afterSections.get(name),
              thresholds(name, before, after),
              tolerance,
              allow));
    }
    changes = ClassInitWaits.match(changes, beforeSections, afterSections, tolerance);
    changes.sort(
        Comparator.comparing(SiteChange::status)
            .thenComparing(
                Comparator.comparingLong(
                        (SiteChange c) -> Math.max(c.beforeNanos(), c.afterNanos()))
                    .reversed()));
    return new DiffResult(before, after, tolerance, changes, Comparability.notes(before, after));
  }

  /** Whether every recording of both sides could record a pin, so that pins can be compared. */
  static boolean pinningCompared(Analysis before, Analysis after) {
    return before.recordingsWithoutPinning().isEmpty()
        && after.recordingsWithoutPinning().isEmpty();
  }

  /**
   * The thresholds of a section's event on either side: events shorter than these were not
   * recorded. Null where the recording does not say, or the section has no threshold.
   */
  record Thresholds(Long beforeNanos, Long afterNanos) {
    static final Thresholds NONE = new Thresholds(null, null);
  }

  /**
   * The sites of an analysis by diff section: pinned; monitor enters and waits (JDK 21-23); and
   * carriers held without a pinned event: CPU runs, file I/O and the carriers the scheduler started
   * to compensate. A new one of these is a regression as a new pin is.
   */
  static Map<String, List<Site>> sections(Analysis a) {
    Map<String, List<Site>> sections = new LinkedHashMap<>();
    sections.put("pinned", a.pinned().sites());
    sections.put("monitorEnter", a.monitorEnter() == null ? List.of() : a.monitorEnter().sites());
    sections.put("monitorWait", a.monitorWait() == null ? List.of() : a.monitorWait().sites());
    sections.put("cpuRuns", a.carrierWork().runSites());
    sections.put("fileIo", a.carrierWork().fileIoSites());
    sections.put("compensation", a.carrierWork().compensationSites());
    return sections;
  }

  private static Thresholds thresholds(String section, Analysis before, Analysis after) {
    return switch (section) {
      case "pinned" -> thresholds(before, after, RecordingSettings::pinnedThresholdNanos);
      case "monitorEnter" ->
          thresholds(before, after, RecordingSettings::monitorEnterThresholdNanos);
      case "monitorWait" -> thresholds(before, after, RecordingSettings::monitorWaitThresholdNanos);
      default -> Thresholds.NONE;
    };
  }

  private static Thresholds thresholds(
      Analysis before, Analysis after, Function<RecordingSettings, Long> threshold) {
    return new Thresholds(
        before.settings() == null ? null : threshold.apply(before.settings()),
        after.settings() == null ? null : threshold.apply(after.settings()));
  }

  private static List<SiteChange> section(
      String name,
      List<Site> before,
      List<Site> after,
      Thresholds thresholds,
      double tolerance,
      AllowList allow) {
    Map<String, long[]> b = totals(before);
    Map<String, long[]> a = totals(after);
    Map<String, Label> labels = new LinkedHashMap<>();
    label(before, labels, allow);
    label(after, labels, allow);
    List<SiteChange> changes = new ArrayList<>();
    for (Map.Entry<String, Label> e : labels.entrySet()) {
      long[] x = b.getOrDefault(e.getKey(), new long[3]);
      long[] y = a.getOrDefault(e.getKey(), new long[3]);
      Label label = e.getValue();
      SiteChange.Status status = status(x, y, thresholds, tolerance);
      changes.add(
          new SiteChange(
              name,
              e.getKey(),
              label.culprit(),
              label.kind(),
              name,
              status,
              label.warmUp(),
              label.allowedBy(),
              status != SiteChange.Status.HIDDEN
                  ? null
                  : y[0] == 0 ? thresholds.afterNanos() : thresholds.beforeNanos(),
              x[0],
              x[1],
              y[0],
              y[1]));
    }
    return changes;
  }

  /**
   * How a culprit changed, from its events, total and longest event on either side ({@code {events,
   * totalNanos, maxNanos}}). A culprit gone from one side whose events on the other were all
   * shorter than the first side's threshold was hidden by it: that side could not have recorded it,
   * so it is neither fixed nor new.
   */
  static SiteChange.Status status(
      long[] before, long[] after, Thresholds thresholds, double tolerance) {
    if (before[0] > 0 && after[0] == 0) {
      return under(before, thresholds.afterNanos())
          ? SiteChange.Status.HIDDEN
          : SiteChange.Status.FIXED;
    }
    if (before[0] == 0) {
      return under(after, thresholds.beforeNanos())
          ? SiteChange.Status.HIDDEN
          : SiteChange.Status.NEW;
    }
    long change = after[1] - before[1];
    if (Math.abs(change) < MIN_CHANGE_NANOS || Math.abs(change) <= tolerance * before[1]) {
      return SiteChange.Status.SAME;
    }
    return change > 0 ? SiteChange.Status.WORSE : SiteChange.Status.BETTER;
  }

  /** Whether every event of {@code totals} was shorter than {@code thresholdNanos}. */
  private static boolean under(long[] totals, Long thresholdNanos) {
    return thresholdNanos != null && totals[0] > 0 && totals[2] < thresholdNanos;
  }

  private static Map<String, long[]> totals(List<Site> sites) {
    Map<String, long[]> totals = new LinkedHashMap<>();
    for (Site site : sites) {
      long[] t = totals.computeIfAbsent(key(site), k -> new long[3]);
      t[0] += site.durations().count();
      t[1] += site.durations().totalNanos();
      t[2] = Math.max(t[2], site.durations().maxNanos());
    }
    return totals;
  }

  /** How a culprit is shown, and what excuses it from being a regression. */
  private record Label(String culprit, String kind, boolean warmUp, String allowedBy) {}

  private static void label(List<Site> sites, Map<String, Label> labels, AllowList allow) {
    for (Site site : sites) {
      Culprit c = site.attribution() == null ? null : site.attribution().culprit();
      labels.putIfAbsent(
          key(site),
          c == null
              ? new Label(site.key(), null, false, null)
              : new Label(
                  c.qualifiedMethod(),
                  c.kind().name(),
                  c.isWarmUp(site.stack().frames()),
                  allow.match(c.className(), c.method())));
    }
  }

  /** Sites are matched by culprit kind and method; without attribution, by their own key. */
  static String key(Site site) {
    Culprit c = site.attribution() == null ? null : site.attribution().culprit();
    return c == null ? site.key() : c.kind() + " " + c.stableMethod();
  }
}
