package dev.vtscope.report;

import dev.vtscope.advice.Advice;
import dev.vtscope.analysis.Analysis;
import java.io.PrintWriter;

/** Formats an analysis and the advice drawn from it; computes nothing. */
public interface ReportRenderer {

  void render(Analysis analysis, Advice advice, PrintWriter out);
}
