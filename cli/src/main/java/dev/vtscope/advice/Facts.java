package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Small computations the rules share. */
final class Facts {

  static final String DOCS = "docs/findings.md#";

  private Facts() {}

  /** The longest input's recorded time: the concurrency figures are those of one input. */
  static long recordingNanos(Analysis a) {
    return a.inputs().stream().mapToLong(InputFacts::durationNanos).max().orElse(0);
  }

  /** All inputs' recorded time: the capacity that pinned time is compared with. */
  static long totalRecordingNanos(Analysis a) {
    return a.inputs().stream().mapToLong(InputFacts::durationNanos).sum();
  }

  static int parallelism(Analysis a) {
    return a.scheduler().parallelism().value();
  }

  /** Carrier time as a share of the carriers' capacity over the recording, or -1 if unknown. */
  static double capacityShare(Analysis a, long carrierNanos) {
    long duration = totalRecordingNanos(a);
    int parallelism = parallelism(a);
    if (duration <= 0 || parallelism <= 0) {
      return -1;
    }
    return carrierNanos / ((double) duration * parallelism);
  }

  /** The severity of carrier time, by its share of capacity; medium when the share is unknown. */
  static Severity severity(Analysis a, Knowledge k, long carrierNanos) {
    return severityOfShare(k, capacityShare(a, carrierNanos));
  }

  /**
   * The severity of the carrier time held at {@code sites}. Of one recording, by its share of the
   * recording's capacity; of several, by the share in the recording where it was largest, so that
   * healthy recordings analysed with one that stalled never make its stall look smaller.
   */
  static Severity severity(Analysis a, Knowledge k, List<Site> sites) {
    if (a.inputs().size() <= 1) {
      return severity(a, k, total(sites));
    }
    int parallelism = parallelism(a);
    double worst = -1;
    for (int i = 0; i < a.inputs().size(); i++) {
      long duration = a.inputs().get(i).durationNanos();
      if (duration <= 0 || parallelism <= 0) {
        continue;
      }
      long nanos = 0;
      for (Site site : sites) {
        nanos += site.nanosIn(i);
      }
      worst = Math.max(worst, nanos / ((double) duration * parallelism));
    }
    return severityOfShare(k, worst);
  }

  private static Severity severityOfShare(Knowledge k, double share) {
    if (share < 0) {
      return Severity.MEDIUM;
    }
    if (share >= k.thresholds().highCapacityShare()) {
      return Severity.HIGH;
    }
    if (share >= k.thresholds().mediumCapacityShare()) {
      return Severity.MEDIUM;
    }
    return share >= k.thresholds().lowCapacityShare() ? Severity.LOW : Severity.INFO;
  }

  static String percent(double share) {
    return Message.Share.percent(share);
  }

  static String percent(long part, long whole) {
    return Message.share(part, whole).percent();
  }

  static Culprit culprit(Site site) {
    return site.attribution() == null ? null : site.attribution().culprit();
  }

  /** Sites grouped by culprit (kind and method), in the order of their first site. */
  static Map<String, List<Site>> byCulprit(List<Site> sites, Predicate<Culprit> which) {
    Map<String, List<Site>> groups = new LinkedHashMap<>();
    for (Site site : sites) {
      Culprit c = culprit(site);
      if (c != null && which.test(c)) {
        groups.computeIfAbsent(key(c), x -> new ArrayList<>()).add(site);
      }
    }
    return groups;
  }

  static String key(Culprit c) {
    return c.kind() + " " + c.qualifiedMethod();
  }

  /**
   * The culprit's frame as {@code Class.method(File.java:12)}, or its method when off the stack.
   */
  static String culpritFrame(Site site) {
    Culprit c = culprit(site);
    int i = c.frameIndex();
    return i >= 0 && i < site.stack().frames().size()
        ? site.stack().frames().get(i).display()
        : c.qualifiedMethod();
  }

  static long total(List<Site> sites) {
    return sites.stream().mapToLong(s -> s.durations().totalNanos()).sum();
  }

  static long events(List<Site> sites) {
    return sites.stream().mapToLong(s -> s.durations().count()).sum();
  }

  static long maxNanos(List<Site> sites) {
    return sites.stream().mapToLong(s -> s.durations().maxNanos()).max().orElse(0);
  }

  static long eventsOf(Site site) {
    return site.durations().count();
  }

  static int threads(List<Site> sites) {
    return sites.stream().mapToInt(Site::virtualThreads).sum();
  }

  static boolean isMonitorHold(CulpritKind kind) {
    return kind == CulpritKind.SYNCHRONIZED_METHOD || kind == CulpritKind.SYNCHRONIZED_BLOCK;
  }

  /** An artifact's version when it is a number vtscope can compare, or null. */
  static String version(Artifact artifact) {
    String v = artifact == null ? null : artifact.version();
    return v == null || v.isBlank() || !Character.isDigit(v.strip().charAt(0)) ? null : v.strip();
  }

  /** Compares dotted versions by their numeric parts; a missing part counts as 0. */
  static int compareVersions(String a, String b) {
    String[] x = a.split("[.\\-]");
    String[] y = b.split("[.\\-]");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int p = i < x.length ? number(x[i]) : 0;
      int q = i < y.length ? number(y[i]) : 0;
      if (p != q) {
        return Integer.compare(p, q);
      }
    }
    return 0;
  }

  private static int number(String part) {
    int end = 0;
    while (end < part.length() && Character.isDigit(part.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(part.substring(0, Math.min(end, 9)));
  }

  /** What kind of hold the culprit is, e.g. {@code synchronized block, lines 3-7}. */
  static Message what(Culprit c) {
    return Message.of(
        "kind." + c.kind().name(), "lines", c.lineRange() == null ? "" : ", " + c.lineRange());
  }
}
