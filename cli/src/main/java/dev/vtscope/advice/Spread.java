package dev.vtscope.advice;

import java.util.ArrayList;
import java.util.List;

/**
 * Of a finding of a report of several recordings: the recordings it was found in, how severe it was
 * in each, and the one whose figures it shows (the worst). Findings are made per recording, never
 * from figures added up across JVMs, so a healthy recording beside a starved one changes nothing of
 * the starved one's finding.
 *
 * @param recordings indices, in the report's inputs, of the recordings it was found in, in order
 * @param severities its severity in each of those, in the same order
 * @param worst the index of the recording whose figures it shows
 * @param of how many recordings the report has
 */
public record Spread(List<Integer> recordings, List<Severity> severities, int worst, int of) {

  public Spread {
    recordings = List.copyOf(recordings);
    severities = List.copyOf(severities);
    if (recordings.size() != severities.size()) {
      throw new IllegalArgumentException("a severity for each recording");
    }
  }

  /** Of a finding of the one recording at {@code index}. */
  static Spread one(int index, Severity severity) {
    return new Spread(List.of(index), List.of(severity), index, index + 1);
  }

  /** The same recordings, at {@code offset} further in a report of {@code of} recordings. */
  Spread shifted(int offset, int of) {
    List<Integer> shifted = new ArrayList<>(recordings.size());
    recordings.forEach(r -> shifted.add(r + offset));
    return new Spread(shifted, severities, worst + offset, of);
  }

  /**
   * Which recordings have the finding and whose figures it shows, in words: {@code names} are the
   * names of the report's inputs.
   */
  public dev.vtscope.analysis.Message said(List<String> names) {
    String worstName = names.get(worst);
    if (recordings.size() == of) {
      return dev.vtscope.analysis.Message.of("recordings.spread.all", "of", of, "worst", worstName);
    }
    if (recordings.size() == 1) {
      return dev.vtscope.analysis.Message.of("recordings.spread.one", "of", of, "worst", worstName);
    }
    List<String> shown = new ArrayList<>();
    for (int k = 0; k < recordings.size() && shown.size() < NAMED; k++) {
      shown.add(names.get(recordings.get(k)));
    }
    return dev.vtscope.analysis.Message.of(
        "recordings.spread.some",
        "count",
        recordings.size(),
        "of",
        of,
        "names",
        shown,
        "more",
        recordings.size() > shown.size()
            ? dev.vtscope.analysis.Message.of(
                "note.in-recordings.more", "more", recordings.size() - shown.size())
            : "",
        "worst",
        worstName);
  }

  /** How many recordings a finding names. */
  private static final int NAMED = 3;
}
