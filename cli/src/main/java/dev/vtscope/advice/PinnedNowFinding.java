package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Virtual threads pinned now, from a running JVM's thread dump ({@code watch --pid}): a pin that
 * has not ended has no JFR event yet, and one that never ends (a deadlock) never will. Not a {@link
 * Rule}: rules read an analysis of events, and this reads the moment the dump was taken.
 */
public final class PinnedNowFinding {

  static final String ID = "pinned-now";
  static final String UNKNOWN_ID = "pinned-now-unknown";
  private static final int CULPRITS_NAMED = 3;

  private PinnedNowFinding() {}

  /**
   * {@code advice} for a running JVM of which no thread dump could be read: the events alone would
   * call it healthy, while a pin that has not ended has no event yet, so the healthy finding gives
   * way to one that says the carriers pinned now are unknown, and why.
   *
   * @param why why no dump was read: a dump still running, or the failure
   */
  static Advice unknown(Advice advice, Message why) {
    if (advice.findings().stream().noneMatch(f -> f.id().equals(HealthyRule.ID))) {
      return advice;
    }
    List<Finding> all = new ArrayList<>();
    for (Finding f : advice.findings()) {
      all.add(
          !f.id().equals(HealthyRule.ID)
              ? f
              : new Finding(
                  UNKNOWN_ID,
                  Severity.INFO,
                  Message.of("pinned-now-unknown.title", "why", why),
                  Message.of("pinned-now-unknown.explanation"),
                  List.of(Message.of("pinned-now.action.dump")),
                  List.of(),
                  "21+",
                  Facts.DOCS + UNKNOWN_ID,
                  0,
                  List.of(),
                  List.of()));
    }
    return new Advice(all, advice.carrierPool());
  }

  /**
   * Of each holder whose pins ended in the recording (pinned events), how many ended and the
   * longest, by the holder's {@code Class.method}.
   */
  static Map<String, long[]> endedPins(Analysis analysis) {
    Map<String, long[]> ended = new HashMap<>();
    if (analysis.pinned() != null) {
      for (Site site : analysis.pinned().sites()) {
        Culprit c = Facts.culprit(site);
        if (c != null) {
          long[] pins = ended.computeIfAbsent(c.qualifiedMethod(), k -> new long[2]);
          pins[0] += site.durations().count();
          pins[1] = Math.max(pins[1], site.durations().maxNanos());
        }
      }
    }
    return ended;
  }

  /**
   * The finding for {@code pinned}, when any: high when every carrier is pinned now (no other
   * virtual thread can run), medium otherwise; low when each holder's pins also ended in the
   * recording, as pins caught in passing by the dump do.
   *
   * @param parallelism the scheduler's carriers, or 0 when unknown
   * @param ended of each holder whose pins ended in the recording: how many, and the longest
   */
  static Optional<Finding> of(List<PinnedNow> pinned, int parallelism, Map<String, long[]> ended) {
    if (pinned == null || pinned.isEmpty()) {
      return Optional.empty();
    }
    Set<String> culprits = new LinkedHashSet<>();
    List<String> classes = new ArrayList<>();
    boolean passing = true;
    long endedPins = 0;
    long longest = 0;
    Set<String> counted = new java.util.HashSet<>();
    for (PinnedNow p : pinned) {
      Culprit c = p.attribution() == null ? null : p.attribution().culprit();
      long[] pins = c == null ? null : ended.get(c.qualifiedMethod());
      if (pins == null) {
        passing = false;
      } else if (counted.add(c.qualifiedMethod())) {
        endedPins += pins[0];
        longest = Math.max(longest, pins[1]);
      }
      if (c != null && culprits.size() < CULPRITS_NAMED && culprits.add(c.qualifiedMethod())) {
        classes.add(c.className());
      }
    }
    // a pin the scheduler makes up for (Object.wait() on JDK 21-23) has a carrier started beside
    // it: every carrier is held when the pins it does not make up for hold the parallelism's
    List<PinnedNow> uncompensated = pinned.stream().filter(p -> !p.compensated()).toList();
    boolean every =
        parallelism > 0 && PinnedNow.carriersHeld(uncompensated, parallelism) >= parallelism;
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.count("virtual threads pinned now", pinned.size(), "threads"));
    if (parallelism > 0) {
      evidence.add(Evidence.count("parallelism", parallelism, "carriers"));
    }
    if (passing) {
      evidence.add(Evidence.count("their holders' pins that ended", endedPins, "pins"));
      evidence.add(Evidence.nanos("the longest of those", longest));
    }
    return Optional.of(
        new Finding(
            ID,
            passing ? Severity.LOW : every ? Severity.HIGH : Severity.MEDIUM,
            passing
                ? Message.of(
                    "pinned-now.title.passing",
                    "threads",
                    pinned.size(),
                    "culprits",
                    List.copyOf(culprits),
                    "ended",
                    endedPins,
                    "longest",
                    Message.nanos(longest))
                : Message.of(
                    every ? "pinned-now.title.every" : "pinned-now.title.some",
                    "threads",
                    pinned.size(),
                    "culprits",
                    List.copyOf(culprits)),
            Message.of("pinned-now.explanation"),
            List.of(
                Message.of("pinned-now.action.fix-holders", "culprits", List.copyOf(culprits)),
                Message.of("pinned-now.action.dump")),
            evidence,
            "21+",
            Facts.DOCS + ID,
            0,
            classes,
            List.of()));
  }
}
