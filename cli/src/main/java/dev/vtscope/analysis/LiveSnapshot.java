package dev.vtscope.analysis;

import java.util.List;

/**
 * What a running JVM's events say at one moment: the analysis of everything read so far, and what
 * the last interval added to it.
 *
 * @param analysis every event read so far, analysed as a recording is
 * @param intervalNanos the length of the last interval
 * @param pinnedInInterval pinned events that ended in the last interval
 * @param pinnedNanosInInterval their pinned time
 * @param carriersHeldInInterval the most carriers held at once (pinned, and on JDK 21–23 entering a
 *     monitor) by the holds that ended in the last interval
 * @param submitFailuresInInterval tasks the scheduler rejected in the last interval
 * @param sites the sites that held carriers, those most active in the last interval first
 * @param pinnedNow the virtual threads blocked while pinned at the end of the interval, from a
 *     thread dump (a pin that has not ended has no event yet); null when no dump was taken
 * @param scheduler the scheduler's counts at the end of the interval (JDK 24+), or null
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
    Scheduler scheduler) {

  public LiveSnapshot {
    sites = List.copyOf(sites);
    pinnedNow = pinnedNow == null ? null : List.copyOf(pinnedNow);
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
   * One site, with what the last interval added to it.
   *
   * @param site the site, with its totals
   * @param monitorEnter whether it is a site of monitor enters (JDK 21–23) rather than of pins
   * @param eventsInInterval its events that ended in the last interval
   * @param nanosInInterval their carrier time
   */
  public record SiteActivity(
      Site site, boolean monitorEnter, long eventsInInterval, long nanosInInterval) {}
}
