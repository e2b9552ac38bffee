package dev.vtscope.advice;

import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Virtual threads pinned now, from a running JVM's thread dump ({@code watch --pid}): a pin that
 * has not ended has no JFR event yet, and one that never ends (a deadlock) never will. Not a {@link
 * Rule}: rules read an analysis of events, and this reads the moment the dump was taken.
 */
public final class PinnedNowFinding {

  static final String ID = "pinned-now";
  private static final int CULPRITS_NAMED = 3;

  private PinnedNowFinding() {}

  /**
   * The finding for {@code pinned}, when any: high when every carrier is pinned now (no other
   * virtual thread can run), medium otherwise.
   *
   * @param parallelism the scheduler's carriers, or 0 when unknown
   */
  /**
   * {@code advice} with the finding for {@code pinned} first, when there is one: the events alone
   * would call a JVM whose pins have not ended healthy, so the healthy verdict goes.
   */
  public static Advice addTo(Advice advice, List<PinnedNow> pinned, int parallelism) {
    return of(pinned, parallelism)
        .map(
            now -> {
              // most severe first, as the rules' findings are, and first among its severity:
              // what holds carriers now matters more than what held them (a stable sort keeps
              // the rules' order within each severity)
              List<Finding> all = new ArrayList<>();
              all.add(now);
              // the recording's own last thread dump says less than the dump taken now
              advice.findings().stream()
                  .filter(f -> !f.id().equals(HealthyRule.ID))
                  .filter(f -> !f.id().equals(PinnedAtEndRule.ID))
                  .forEach(all::add);
              all.sort(
                  java.util.Comparator.comparing(
                      Finding::severity, java.util.Comparator.reverseOrder()));
              return new Advice(all, advice.carrierPool());
            })
        .orElse(advice);
  }

  public static Optional<Finding> of(List<PinnedNow> pinned, int parallelism) {
    if (pinned == null || pinned.isEmpty()) {
      return Optional.empty();
    }
    Set<String> culprits = new LinkedHashSet<>();
    List<String> classes = new ArrayList<>();
    for (PinnedNow p : pinned) {
      Culprit c = p.attribution() == null ? null : p.attribution().culprit();
      if (c != null && culprits.size() < CULPRITS_NAMED && culprits.add(c.qualifiedMethod())) {
        classes.add(c.className());
      }
    }
    boolean every = parallelism > 0 && pinned.size() >= parallelism;
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.count("virtual threads pinned now", pinned.size(), "threads"));
    if (parallelism > 0) {
      evidence.add(Evidence.count("parallelism", parallelism, "carriers"));
    }
    return Optional.of(
        new Finding(
            ID,
            every ? Severity.HIGH : Severity.MEDIUM,
            Message.of(
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
