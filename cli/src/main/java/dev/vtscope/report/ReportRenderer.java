package dev.vtscope.report;

import dev.vtscope.analysis.Analysis;
import java.io.PrintWriter;

/** Formats an analysis. */
public interface ReportRenderer {

  void render(Analysis analysis, PrintWriter out);
}
