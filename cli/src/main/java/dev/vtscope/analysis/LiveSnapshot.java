package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a running JVM's events say at one moment: the analysis of everything read so far, and what
 * the last interval's own events say.
 *
 * @param analysis every event read so far, analysed as a recording is
 * @param intervalNanos the length of the last interval
 * @param pinnedInInterval pinned events that ended in the last interval
 * @param pinnedNanosInInterval their pinned time
 * @param carriersHeldInInterval the most carriers held at once in the last interval (pinned, and on
 *     JDK 21–23 entering a monitor): by the holds that ended in it, or by the virtual threads the
 *     latest thread dump shows holding their carrier ({@code pinnedNow}), when more
 * @param submitFailuresInInterval tasks the scheduler rejected in the last interval
 * @param sites the sites that held carriers, those most active in the last interval first
 * @param pinnedNow the virtual threads blocked while pinned, from the latest thread dump (a pin
 *     that has not ended has no event yet); null when no dump was taken
 * @param scheduler the scheduler's counts at the end of the interval (JDK 24+), or null
 * @param dump how old the thread dump behind {@code pinnedNow} is, or null when no dump was asked
 *     for
 */
public record LiveSnapshot(
    Analysis analysis,
    long intervalNanos,
    long pinnedInInterval,
    long pinnedNanosInInterval,
    int carriersHeldInInterval,
    long submitFailuresInInterval,
    List<SiteActivity> sites,
    List<PinnedNow> pinnedNow,
    Scheduler scheduler,
    DumpAge dump) {

  public LiveSnapshot {
    sites = List.copyOf(sites);
    pinnedNow = pinnedNow == null ? null : List.copyOf(pinnedNow);
  }

  /**
   * The snapshot of a stream that keeps its total, at the end of {@code tick}: the interval's
   * figures are those of its own analysis (all 0 when it was quiet), the sites and totals those of
   * the total's.
   *
   * @throws IllegalArgumentException when the stream keeps no total
   */
  public static LiveSnapshot of(
      IntervalStream.Tick tick, List<PinnedNow> pinnedNow, Scheduler scheduler, DumpAge dump) {
    if (tick.total() == null) {
      throw new IllegalArgumentException("a live snapshot needs the stream's total");
    }
    Analysis interval = tick.interval();
    Map<String, DurationSummary> inInterval = new HashMap<>();
    if (interval != null) {
      interval.pinned().sites().forEach(s -> inInterval.put(pinnedKey(s), s.durations()));
      if (interval.monitorEnter() != null) {
        interval.monitorEnter().sites().forEach(s -> inInterval.put(enterKey(s), s.durations()));
      }
    }
    Analysis total = tick.total();
    List<SiteActivity> sites = new ArrayList<>();
    for (Site site : total.pinned().sites()) {
      sites.add(SiteActivity.of(site, false, inInterval.get(pinnedKey(site))));
    }
    if (total.monitorEnter() != null) {
      for (Site site : total.monitorEnter().sites()) {
        sites.add(SiteActivity.of(site, true, inInterval.get(enterKey(site))));
      }
    }
    sites.sort(
        Comparator.comparingLong(SiteActivity::nanosInInterval)
            .reversed()
            .thenComparing(
                Comparator.comparingLong((SiteActivity a) -> a.site().durations().totalNanos())
                    .reversed()));
    return new LiveSnapshot(
        total,
        tick.intervalNanos(),
        interval == null ? 0 : interval.pinned().durations().count(),
        interval == null ? 0 : interval.pinned().durations().totalNanos(),
        // a hold that has not ended has no event yet, and held its carrier in the interval too:
        // the count is the dump's, by the rule that makes the pinned-now finding
        Math.max(
            interval == null || interval.carriers() == null ? 0 : interval.carriers().peak(),
            pinnedNow == null
                ? 0
                : PinnedNow.carriersHeld(pinnedNow, parallelism(total, scheduler))),
        interval == null ? 0 : interval.submitFailed().events(),
        sites,
        pinnedNow,
        scheduler,
        dump);
  }

  /**
   * The scheduler's parallelism as the recording's settings give it, else as the JVM counts it (JDK
   * 24+, with --pid); -1 when neither says.
   */
  public int parallelism() {
    return parallelism(analysis, scheduler);
  }

  private static int parallelism(Analysis analysis, Scheduler scheduler) {
    int recorded = analysis.scheduler().parallelism().value();
    if (recorded > 0) {
      return recorded;
    }
    return scheduler != null && scheduler.parallelism() > 0 ? scheduler.parallelism() : -1;
  }

  /** How many carriers the virtual threads pinned now hold ({@link PinnedNow#carriersHeld}). */
  public int carriersPinnedNow() {
    return pinnedNow == null ? 0 : PinnedNow.carriersHeld(pinnedNow, parallelism());
  }

  private static String pinnedKey(Site site) {
    return "pinned " + site.key();
  }

  private static String enterKey(Site site) {
    return "enter " + site.key();
  }

  /**
   * The virtual threads pinned now, grouped by what holds them (the culprit's class and method),
   * the largest group first, groups of one size in the order of their first thread; empty when no
   * dump was taken.
   */
  public List<PinnedNowGroup> pinnedNowByHolder() {
    if (pinnedNow == null) {
      return List.of();
    }
    Map<String, List<PinnedNow>> byHolder = new LinkedHashMap<>();
    for (PinnedNow p : pinnedNow) {
      Culprit c = p.attribution() == null ? null : p.attribution().culprit();
      String key = c == null ? "" : c.className() + "." + c.method();
      byHolder.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
    }
    List<PinnedNowGroup> groups = new ArrayList<>();
    byHolder
        .values()
        .forEach(threads -> groups.add(new PinnedNowGroup(threads.get(0).attribution(), threads)));
    groups.sort(Comparator.comparingInt((PinnedNowGroup g) -> g.threads().size()).reversed());
    return groups;
  }

  /**
   * Virtual threads pinned now by the same holder.
   *
   * @param attribution the holder, as the first of them is attributed; null when unattributed
   * @param threads the threads, in the dump's order
   */
  public record PinnedNowGroup(Attribution attribution, List<PinnedNow> threads) {
    public PinnedNowGroup {
      threads = List.copyOf(threads);
    }
  }

  /**
   * How old the thread dump behind a snapshot's pinned-now threads is: a JVM with very many threads
   * takes longer than an interval to dump, and its dumps are then taken less often than intervals
   * end, on a thread of their own.
   *
   * @param ageNanos how long before the end of the interval the dump shown was started, or -1 when
   *     no dump has finished yet
   * @param tookNanos how long that dump took, or how long the one running has run so far when it is
   *     longer
   */
  public record DumpAge(long ageNanos, long tookNanos) {

    /** Whether the dump shown is older than {@code intervalNanos}, or none has finished yet. */
    public boolean late(long intervalNanos) {
      return ageNanos < 0 || ageNanos > intervalNanos;
    }
  }

  /**
   * The virtual-thread scheduler's counts at one moment, as {@code
   * jdk.management.VirtualThreadSchedulerMXBean} gives them (JDK 24+).
   *
   * @param parallelism its parallelism
   * @param poolSize its carriers
   * @param mounted virtual threads mounted on a carrier
   * @param queued virtual threads ready to run, waiting for a carrier
   */
  public record Scheduler(int parallelism, int poolSize, int mounted, long queued) {}

  /**
   * One site, with what the last interval's own events gave it.
   *
   * @param site the site, with its totals
   * @param monitorEnter whether it is a site of monitor enters (JDK 21–23) rather than of pins
   * @param eventsInInterval its events that ended in the last interval
   * @param nanosInInterval their carrier time
   */
  public record SiteActivity(
      Site site, boolean monitorEnter, long eventsInInterval, long nanosInInterval) {

    static SiteActivity of(Site site, boolean monitorEnter, DurationSummary inInterval) {
      DurationSummary d = Objects.requireNonNullElse(inInterval, DurationSummary.EMPTY);
      return new SiteActivity(site, monitorEnter, d.count(), d.totalNanos());
    }
  }
}
