package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.RecordingFigures;
import java.util.ArrayList;
import java.util.List;

/**
 * One recording of a report of several, as its row in the recordings table: its own figures and its
 * worst finding.
 *
 * @param index its index in the report's inputs
 * @param input the recording, with its own figures
 * @param worst its most severe finding, or null when it has none of its own
 * @param severity that finding's severity in this recording, or null
 */
public record RecordingVerdict(int index, InputFacts input, Finding worst, Severity severity) {

  /** Rows shown before the rest are counted. */
  public static final int SHOWN = 10;

  /**
   * Every recording of {@code a}, the worst first: by the severity of its worst finding, then by
   * the time every carrier was held (as findings rank by carrier time), then by pinned time; the
   * order given breaks ties.
   */
  public static List<RecordingVerdict> of(Analysis a, Advice advice) {
    List<RecordingVerdict> rows = new ArrayList<>();
    List<Advice.Worst> worst = advice.worstByRecording(a.inputs().size());
    for (int i = 0; i < a.inputs().size(); i++) {
      Advice.Worst w = worst.get(i);
      rows.add(
          new RecordingVerdict(
              i,
              a.inputs().get(i),
              w == null ? null : w.finding(),
              w == null ? null : w.severity()));
    }
    rows.sort(
        (x, y) -> {
          int c = Integer.compare(rank(y.severity), rank(x.severity));
          if (c != 0) {
            return c;
          }
          c = Long.compare(y.saturatedNanos(), x.saturatedNanos());
          if (c != 0) {
            return c;
          }
          c = Long.compare(y.pinnedNanos(), x.pinnedNanos());
          return c != 0 ? c : Integer.compare(x.index, y.index);
        });
    return rows;
  }

  private static int rank(Severity s) {
    return s == null ? -1 : s.ordinal();
  }

  /** Whether nothing in the recording needs changing: no finding of its own above info. */
  public boolean healthy() {
    return severity == null || severity == Severity.INFO;
  }

  /** The time every carrier of the recording was held. */
  public long saturatedNanos() {
    RecordingFigures f = input.figures();
    return f == null || f.held() == null ? 0 : f.held().saturatedNanos();
  }

  /** The share of the recording's length with every carrier held. */
  public double saturatedShare() {
    RecordingFigures f = input.figures();
    return f == null ? 0 : f.saturatedShare(input.durationNanos());
  }

  /** The recording's pinned time. */
  public long pinnedNanos() {
    return input.figures() == null ? 0 : input.figures().pinnedNanos();
  }
}
