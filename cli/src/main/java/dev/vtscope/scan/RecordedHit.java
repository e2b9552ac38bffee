package dev.vtscope.scan;

/**
 * What recordings attribute to one scan finding: the pins and monitor waits of the sites whose
 * culprit is the finding's method.
 *
 * @param events the events of those sites
 * @param pinnedNanos their total time, the carrier time the finding's code held
 */
public record RecordedHit(long events, long pinnedNanos) {

  RecordedHit plus(long moreEvents, long moreNanos) {
    return new RecordedHit(events + moreEvents, pinnedNanos + moreNanos);
  }
}
