package dev.vtscope.advice;

import dev.vtscope.analysis.Message;
import java.util.List;

/**
 * The carrier-pool recommendation.
 *
 * @param current the settings in effect during the recording
 * @param recommended the settings vtscope recommends; equal to {@code current} when they should
 *     stay
 * @param change whether vtscope recommends changing anything
 * @param javaOptions the options to paste, or null when nothing should change
 * @param peak the most carriers held at once
 * @param p99 carriers held at once at the pinnedTimeQuantile of recorded time
 * @param saturatedNanos time with every carrier held
 * @param reasoning two to four sentences: the figures, the formula, and its limits
 * @param recording of a report of several recordings, the index of the recording it is made for
 *     (the one that held most carriers at once), or -1 for one recording
 */
public record CarrierPool(
    Settings current,
    Settings recommended,
    boolean change,
    String javaOptions,
    int peak,
    int p99,
    long saturatedNanos,
    List<Message> reasoning,
    int recording) {

  public CarrierPool {
    reasoning = List.copyOf(reasoning);
  }

  /** The recommendation for one recording. */
  public CarrierPool(
      Settings current,
      Settings recommended,
      boolean change,
      String javaOptions,
      int peak,
      int p99,
      long saturatedNanos,
      List<Message> reasoning) {
    this(current, recommended, change, javaOptions, peak, p99, saturatedNanos, reasoning, -1);
  }

  /** The same recommendation, made for the recording at {@code recording} of a report. */
  public CarrierPool forRecording(int recording) {
    return new CarrierPool(
        current, recommended, change, javaOptions, peak, p99, saturatedNanos, reasoning, recording);
  }

  /**
   * Scheduler settings.
   *
   * @param parallelism {@code jdk.virtualThreadScheduler.parallelism}
   * @param maxPoolSize {@code jdk.virtualThreadScheduler.maxPoolSize}
   */
  public record Settings(int parallelism, int maxPoolSize) {}
}
