package dev.vtscope.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.advice.Advisor;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.ReportedAnalysis;
import dev.vtscope.report.JsonReportReader;
import dev.vtscope.report.Report;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
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
          "Adds up reports of 'vtscope analyze --format json', one per recording (or per group of"
              + " recordings), into the report one analysis of all those recordings gives: sites"
              + " with the same key add up, their percentiles exactly (each site carries its"
              + " durations), distinct virtual threads add up, and carriers held at once are those"
              + " of the recording that held most. Findings and the carrier-pool advice are made"
              + " again from the sum. The reports must group sites the same way (--group-by).",
          "For a fleet that keeps recordings: run 'vtscope analyze REC --format json -o REC.json'"
              + " as one task per recording, then 'vtscope merge *.json' once (docs/fleet.md).",
          "Input files are only read, never changed.");

  private List<Path> reports = List.of();

  private final OutputOptions output =
      new OutputOptions(spec, OutputOptions.ANALYSIS_FORMATS, OutputOptions.ANALYSIS_FORMATS_HELP);

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
    if (output.format() == ReportFormat.HTML) {
      throw new ExitException(
          ExitCode.USAGE,
          "--format html draws each recording's timeline and stacks, which JSON reports leave out:"
              + " analyze the recordings together for that page (vtscope analyze A.jfr B.jfr"
              + " --format html)");
    }
    ObjectMapper mapper = new ObjectMapper();
    List<ReportedAnalysis> read = new ArrayList<>();
    for (Path report : reports) {
      read.add(read(mapper, report));
    }
    Analysis merged;
    try {
      merged = ReportedAnalysis.merge(read, AnalysisOptions.of(GroupBy.CULPRIT));
    } catch (IllegalArgumentException e) {
      throw new ExitException(ExitCode.NOT_A_RECORDING, e.getMessage(), e);
    }
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.Analyzed(merged, Advisor.standard().advise(merged)),
        spec.commandLine().getOut(),
        reports);
    return ExitCode.OK.code();
  }

  private static ReportedAnalysis read(ObjectMapper mapper, Path report) {
    JsonNode root;
    try (InputStream in =
        report.toString().equals("-") ? System.in : Files.newInputStream(report)) {
      root = mapper.readTree(in);
    } catch (NoSuchFileException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, report + ": no such file (check the path)", e);
    } catch (JsonProcessingException e) {
      throw new ExitException(
          ExitCode.NOT_A_RECORDING,
          report
              + ": not JSON (merge takes the reports of vtscope analyze --format json, not"
              + " recordings)",
          e);
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, report + ": cannot be read: " + e.getMessage(), e);
    }
    try {
      return JsonReportReader.read(root);
    } catch (JsonReportReader.NotAReportException e) {
      throw new ExitException(ExitCode.NOT_A_RECORDING, report + ": " + e.getMessage(), e);
    }
  }
}
