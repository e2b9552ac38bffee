package dev.vtscope.gate;

/**
 * One culprit in a before/after comparison.
 *
 * @param section {@code pinned}, {@code monitorEnter} or {@code monitorWait} (JDK 21–23), {@code
 *     cpuRuns}, {@code fileIo} or {@code compensation}; after the change, when it moved
 * @param key the culprit's kind and method, which sites are matched by
 * @param culprit {@code Class.method}
 * @param kind the culprit kind, e.g. {@code SYNCHRONIZED_BLOCK}
 * @param beforeSection the section it was in before: the same as {@code section}, unless the two
 *     JDKs record it differently (JDK 21–23 record a wait for another thread's class initialiser as
 *     a monitor wait, JDK 24 and later as a pin)
 * @param status new, worse, fixed, better, hidden or same (the order they are listed in)
 * @param warmUp whether the culprit is warm-up that comes and goes between runs (the JDK
 *     initialising its own classes, the JVM loading classes through the JDK's loaders): listed but
 *     never a regression
 * @param allowedBy the {@code --allow} entry that tolerates this culprit, or null
 * @param hiddenByNanos for a hidden culprit, the threshold of the recording without it, which every
 *     event of the other recording was shorter than; null otherwise
 * @param beforeEvents events before
 * @param beforeNanos total time before
 * @param afterEvents events after
 * @param afterNanos total time after
 */
public record SiteChange(
    String section,
    String key,
    String culprit,
    String kind,
    String beforeSection,
    Status status,
    boolean warmUp,
    String allowedBy,
    Long hiddenByNanos,
    long beforeEvents,
    long beforeNanos,
    long afterEvents,
    long afterNanos) {

  /**
   * Whether this change fails a diff: new or worse by at least {@link Differ#MIN_CHANGE_NANOS} (a
   * new culprit of a few microseconds is noise too), not warm-up and not allowed.
   */
  public boolean regression() {
    return status.regression()
        && !warmUp
        && allowedBy == null
        && afterNanos - beforeNanos >= Differ.MIN_CHANGE_NANOS;
  }

  /** How a culprit changed. */
  public enum Status {
    NEW,
    WORSE,
    FIXED,
    BETTER,
    /**
     * Gone from one recording, but that recording could not have recorded it: every event on the
     * other side was shorter than its threshold. Neither fixed nor new.
     */
    HIDDEN,
    SAME;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean regression() {
      return this == NEW || this == WORSE;
    }
  }
}
