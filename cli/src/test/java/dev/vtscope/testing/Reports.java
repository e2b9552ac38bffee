package dev.vtscope.testing;

import dev.vtscope.advice.Advisor;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.RecordingProblemException;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.report.JsonReport;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

/** Analyses a recording and renders it as the golden files hold it. */
public final class Reports {

  private Reports() {}

  /** Analyses {@code file} with vtscope's own reader, naming it {@code name} in the report. */
  public static Analysis analyze(String name, Path file, GroupBy groupBy) {
    return analyze(
        List.of(new RecordingInput(name, List.of(file), false)), groupBy, ReaderKind.VTSCOPE);
  }

  /** Analyses {@code inputs} with the reader {@code reader}. */
  public static Analysis analyze(List<RecordingInput> inputs, GroupBy groupBy, ReaderKind reader) {
    try {
      return new Analyzer(
              reader.create(),
              new dev.vtscope.analysis.AnalysisOptions(
                  groupBy, List.of(), List.of(), Reports::installedJdks))
          .analyze(inputs);
    } catch (RecordingProblemException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The JDKs installed here, as vtscope finds them (the JDK 21 runtime of ./run-tests included).
   */
  public static List<Path> installedJdks() {
    return new dev.vtscope.record.JdkLocator(System.getenv(), TestRecordings.repoRoot())
        .all().stream().map(dev.vtscope.record.Jdk::home).toList();
  }

  public static String text(Analysis analysis) {
    return render(new TextReport(TextStyle.PLAIN), analysis);
  }

  public static String json(Analysis analysis) {
    return render(new JsonReport("test"), analysis);
  }

  private static String render(ReportRenderer renderer, Analysis analysis) {
    StringWriter out = new StringWriter();
    renderer.render(analysis, Advisor.standard().advise(analysis), new PrintWriter(out));
    return out.toString();
  }
}
