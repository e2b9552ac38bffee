package dev.vtscope.cli;

import dev.vtscope.fleet.ReportMerge;
import dev.vtscope.report.Report;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code vtscope merge REPORT...}: the JSON reports of many recordings, each analysed on its own
 * (one task per recording, where the application's jars are), added up into one report of them all,
 * as if analysed together.
 */
final class MergeCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "merge",
          "Adds up the JSON reports of many recordings into one",
          "Adds up reports of 'vtscope analyze --format json', one per recording (or merges of"
              + " them), into the report one analysis of all those recordings gives: sites with"
              + " the same key add up, their percentiles exactly (each site carries its"
              + " durations), distinct virtual threads add up, and what belongs to one JVM"
              + " (carriers held at once, scheduler, settings) stays with its recording. Each"
              + " finding keeps the severity and figures of the recording where it was worst and"
              + " names the recordings that have it. A recording reached twice (the same report"
              + " twice, a merge beside its parts) counts once. The reports must group sites the"
              + " same way (--group-by). There is no HTML page of merged reports: it draws each recording's"
              + " timeline and stacks, which JSON reports leave out; analyze the recordings together"
              + " for it (vtscope analyze A.jfr B.jfr --format html -o vt.html).",
          "For a fleet that keeps recordings: run 'vtscope analyze REC --format json -o REC.json'"
              + " as one task per recording, then 'vtscope merge *.json' once (docs/fleet.md).",
          "Input files are only read, never changed.");

  private List<Path> reports = List.of();

  /**
   * An analysis' forms but the HTML page, which draws each recording's timeline and stacks: JSON
   * reports leave them out.
   */
  private final OutputOptions output =
      new OutputOptions(
          spec, OutputOptions.without(OutputOptions.ANALYSIS_FORMATS, ReportFormat.HTML));

  private final TextReportOptions text = new TextReportOptions(spec);

  MergeCommand() {
    spec.addPositional(
        Specs.parameters(() -> reports, v -> reports = v)
            .paramLabel("REPORT")
            .required(true)
            .arity("1..*")
            .type(List.class)
            .auxiliaryTypes(Path.class)
            .description(
                "JSON reports of vtscope analyze --format json (or of merge); - reads one from"
                    + " standard input.")
            .build());
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    Report.Analyzed merged;
    try {
      merged = new ReportMerge().merge(reports);
    } catch (ReportMerge.ReportException e) {
      throw new ExitException(
          e.unreadable() ? ExitCode.INPUT_UNREADABLE : ExitCode.NOT_A_RECORDING, e.getMessage(), e);
    }
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        merged,
        spec.commandLine().getOut(),
        reports);
    return ExitCode.OK.code();
  }
}
