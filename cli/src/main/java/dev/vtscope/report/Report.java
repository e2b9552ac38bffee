package dev.vtscope.report;

import dev.vtscope.advice.Advice;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.gate.CheckResult;
import dev.vtscope.gate.DiffResult;
import dev.vtscope.scan.ScanAgreement;

/**
 * What a command reports, ready to be formatted: every command reads as analyse, advise, then one
 * of these to a {@link ReportRenderer}, whatever the format.
 */
public sealed interface Report {

  /**
   * {@code vtscope analyze}: an analysis and the advice drawn from it.
   *
   * @param scan with {@code --scan}, how the scan of the class path agrees with the analysis'
   *     sites; else null
   */
  record Analyzed(Analysis analysis, Advice advice, ScanAgreement scan) implements Report {

    /** An analysis without a scan. */
    public Analyzed(Analysis analysis, Advice advice) {
      this(analysis, advice, null);
    }
  }

  /**
   * {@code vtscope check}: what was checked.
   *
   * @param recordings the recordings the check read, by name, in the order of their analysis; or
   *     the thread dumps, in time order
   * @param dumps whether thread dumps were checked rather than recordings
   */
  record Checked(CheckResult result, java.util.List<String> recordings, boolean dumps)
      implements Report {

    public Checked {
      recordings = java.util.List.copyOf(recordings);
    }

    /** A check of recordings. */
    public Checked(CheckResult result, java.util.List<String> recordings) {
      this(result, recordings, false);
    }
  }

  /**
   * {@code vtscope analyze} of thread dumps: what their threads wait for, and the advice drawn from
   * it. Text, JSON, Markdown and HTML show it; OpenMetrics has no form for it.
   */
  record DumpsAnalyzed(dev.vtscope.analysis.DumpAnalysis analysis, Advice advice)
      implements Report {}

  /** {@code vtscope diff}: the sites of two analyses, matched. */
  record Compared(DiffResult result) implements Report {}

  /**
   * {@code vtscope scan}: a class path's methods that can pin. Text, JSON and Markdown show it.
   *
   * @param recorded with {@code --recording}, what the recordings hit of the findings; else null
   */
  record Scanned(dev.vtscope.scan.ScanResult result, ScanAgreement recorded) implements Report {

    /** A scan without recordings. */
    public Scanned(dev.vtscope.scan.ScanResult result) {
      this(result, null);
    }
  }
}
