package dev.vtscope.cli;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.report.Report;
import dev.vtscope.scan.ClassPathScanner;
import dev.vtscope.scan.ScanAgreement;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope analyze}: load, analyse, render. */
final class AnalyzeCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
              this,
              "analyze",
              "Reports where virtual threads pinned their carriers",
              "Reports where virtual threads pinned their carriers (jdk.VirtualThreadPinned), how"
                  + " long and how many at once, where the scheduler rejected tasks"
                  + " (jdk.VirtualThreadSubmitFailed), and, on JDK 21-23, monitor enters and waits"
                  + " that held carriers. Given thread dumps (jcmd PID Thread.dump_to_file"
                  + " -format=json, Thread.print, jstack) instead, reports what their threads wait"
                  + " for, in groups, and over several dumps of one JVM which waits persist.",
              "Input files are only read, never changed.")
          .aliases("analyse");

  private final RecordingInputOptions input =
      new RecordingInputOptions(
          spec,
          " Or thread dumps (docs/thread-dumps.md): files, or a folder of dumps of one JVM, which"
              + " are a series.");

  private final OutputOptions output = new OutputOptions(spec, OutputOptions.ANALYSIS_FORMATS);

  private final TextReportOptions text = new TextReportOptions(spec);

  private final AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.REPORT);

  private boolean threadDumps;

  private boolean scan;

  AnalyzeCommand() {
    spec.addOption(
        Specs.flag(
            () -> threadDumps,
            v -> threadDumps = v,
            "Report the recordings' thread dumps (jdk.ThreadDump events, one a chunk in"
                + " vtscope's settings) as 'analyze' reports dump files: what the threads wait"
                + " for, which waits persist across the dumps, deadlocks.",
            "--thread-dumps"));
    spec.addOption(
        Specs.flag(
            () -> scan,
            v -> scan = v,
            "Also scan the --classpath as vtscope scan does (docs/scan.md) and mark each pinned"
                + " and monitor site whose culprit the scan found (predicted by scan), then list the"
                + " scan's high and medium findings the recording did not hit. The scan reads"
                + " every class of the class path: seconds for an application's jar, up to a"
                + " minute for a hundred libraries.",
            "--scan"));
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    if (scan && analysisOptions.classPath().isEmpty()) {
      throw new ExitException(
          ExitCode.USAGE, "--scan scans the --classpath; give --classpath PATH with it");
    }
    if (DumpInputs.areDumps(input.paths(), input.recursive())) {
      return dumps();
    }
    List<RecordingInput> inputs = input.resolve();
    if (threadDumps) {
      refuseScan();
      refuseRecordingFormat();
      print(
          DumpInputs.analyzeRecorded(
              "analyze", inputs, analysisOptions.reader(), analysisOptions.options()));
      return ExitCode.OK.code();
    }
    Analysis analysis =
        analysisOptions.analyze(
            inputs, output.machineReadable() ? null : spec.commandLine().getErr());
    ScanAgreement agreement =
        scan
            ? ScanAgreement.of(
                ScanCommand.scan(
                    ScanCommand.classPath(
                        analysisOptions.classPath().stream().map(Path::toString).toList()),
                    ClassPathScanner.DEFAULT_DEPTH,
                    List.of()),
                analysis)
            : null;
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.Analyzed(analysis, Advisor.standard().advise(analysis), agreement),
        spec.commandLine().getOut(),
        RecordingInputOptions.files(inputs));
    return ExitCode.OK.code();
  }

  /** A scan is matched with a recording's pinned and monitor sites, which thread dumps lack. */
  private void refuseScan() {
    if (scan) {
      throw new ExitException(
          ExitCode.USAGE,
          "--scan marks a recording's pinned and monitor sites; thread dumps have none, leave it"
              + " out");
    }
  }

  /** Thread dumps given: what their threads wait for, and for a series what persisted. */
  private Integer dumps() {
    refuseScan();
    if (threadDumps) {
      throw new ExitException(
          ExitCode.USAGE,
          "--thread-dumps reads the thread dumps inside recordings; dump files are read as they"
              + " are, without it");
    }
    refuseRecordingFormat();
    print(
        DumpInputs.analyze(
            "analyze",
            input.paths(),
            input.recursive(),
            analysisOptions.options(),
            spec.commandLine().getErr()));
    return ExitCode.OK.code();
  }

  private void refuseRecordingFormat() {
    if (!OutputOptions.DUMP_FORMATS.containsKey(output.format())) {
      throw new ExitException(
          ExitCode.USAGE,
          "--format "
              + output.format().label()
              + ": thread dumps are reported as text, json, markdown or html; give one of those");
    }
  }

  private void print(DumpAnalysis analysis) {
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.DumpsAnalyzed(analysis, DumpAdvisor.advise(analysis)),
        spec.commandLine().getOut(),
        input.paths());
  }
}
