package dev.vtscope.report;

import dev.vtscope.advice.Advice;
import dev.vtscope.analysis.Analysis;
import java.io.PrintWriter;

/** Formats a {@link Report}; computes nothing, and words everything through {@link Wording}. */
public interface ReportRenderer {

  /**
   * @throws IllegalArgumentException when this format has no form for the report (HTML shows an
   *     analysis; JUnit XML a check)
   */
  void render(Report report, PrintWriter out);

  /** An analysis and its advice. */
  default void render(Analysis analysis, Advice advice, PrintWriter out) {
    render(new Report.Analyzed(analysis, advice), out);
  }
}
