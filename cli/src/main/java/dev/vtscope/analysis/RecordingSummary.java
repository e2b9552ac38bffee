package dev.vtscope.analysis;

import java.util.List;

/**
 * What one chunk, one file or one JVM's recording says, reduced to what an analysis needs: pins,
 * monitor waits and carrier work by stack, their duration statistics and distinct threads, the
 * pins' intervals for the exact carriers-at-once sweep, submit failures, and the JVM's facts and
 * recording settings. Nothing is kept per event except those intervals (16 bytes a pin).
 *
 * <p>A summary never changes once made. Summaries of the same JVM merge into a new one, in any
 * order and any grouping, to the summary one pass over all their events makes: a reader reduces
 * each chunk on its own thread and merges the results, live watching merges one summary an interval
 * into the total. Summaries of different JVMs are not merged: {@link Analyzer} keeps one per
 * recording, so that carriers held at once are counted within each JVM.
 */
public final class RecordingSummary {

  private final SummaryBuilder content;

  private RecordingSummary(SummaryBuilder content) {
    this.content = content;
  }

  /** The summary of what {@code builder} took; the builder takes nothing more. */
  static RecordingSummary of(SummaryBuilder builder) {
    builder.seal();
    return new RecordingSummary(builder);
  }

  /** The summary of what {@code builder} took so far; the builder goes on as it was. */
  static RecordingSummary copyOf(SummaryBuilder builder) {
    SummaryBuilder copy = new SummaryBuilder();
    copy.recordedIn = builder.recordedIn;
    copy.merge(builder);
    return of(copy);
  }

  /** A summary of both this and {@code other}, recordings of the same JVM. */
  public RecordingSummary merge(RecordingSummary other) {
    return mergeAll(List.of(this, other));
  }

  /**
   * The summary of all of {@code summaries}, recordings of the same JVM; the same whatever their
   * order.
   *
   * @throws IllegalArgumentException when there are none
   */
  public static RecordingSummary mergeAll(List<RecordingSummary> summaries) {
    if (summaries.isEmpty()) {
      throw new IllegalArgumentException("no summary to merge");
    }
    SummaryBuilder merged = new SummaryBuilder();
    for (RecordingSummary s : summaries) {
      merged.merge(s.content);
    }
    return of(merged);
  }

  /** Chunks summarised. */
  public int chunks() {
    return content.chunks;
  }

  /** Bytes of the chunks summarised. */
  public long bytes() {
    return content.bytes;
  }

  /** Pinned events summarised. */
  public long pinnedEvents() {
    return content.pinnedDurations.count();
  }

  /** What the summary holds, for the analysis to read; never to be changed. */
  SummaryBuilder content() {
    return content;
  }
}
