package dev.vtscope.analysis;

import dev.vtscope.recording.JvmFacts;

/**
 * What belongs to one recording, that is to one JVM, and is never added up or divided across
 * recordings: its scheduler, its JFR settings, the carriers it held at once and for how long all of
 * them were held. A report of several recordings shows these per recording, beside the figures that
 * do add up (events, pinned time, sites).
 *
 * @param identity what tells this recording from every other, whatever path reached it: its JVM
 *     (pid and start) and the span and chunk count of what was read; two reports of the same
 *     recording carry the same identity
 * @param scheduler its JVM's scheduler settings, carriers started included
 * @param settings its JFR settings
 * @param pinnedEvents its pinned events
 * @param pinnedNanos its pinned time
 * @param held carriers it held at once: pinned, and on JDK 21–23 entering a monitor
 */
public record RecordingFigures(
    String identity,
    SchedulerSettings scheduler,
    RecordingSettings settings,
    long pinnedEvents,
    long pinnedNanos,
    Concurrency held) {

  /**
   * The identity of a recording read from {@code chunks} chunks spanning {@code startNanos} for
   * {@code durationNanos}, written by {@code jvm} (null when the recording does not say).
   */
  public static String identity(JvmFacts jvm, long startNanos, long durationNanos, int chunks) {
    String writer =
        jvm == null || jvm.pid() < 0 ? "jvm ?" : "jvm " + jvm.pid() + "@" + jvm.jvmStartNanos();
    return writer + " recorded " + startNanos + "+" + durationNanos + " in " + chunks + " chunks";
  }

  /** The share of {@code durationNanos}, the recording's length, with every carrier held. */
  public double saturatedShare(long durationNanos) {
    return held == null || durationNanos <= 0 ? 0 : held.saturatedNanos() / (double) durationNanos;
  }
}
