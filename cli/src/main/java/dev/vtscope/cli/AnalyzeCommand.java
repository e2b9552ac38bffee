package dev.vtscope.cli;

import dev.vtscope.advice.Advisor;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.report.Report;
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
                  + " that held carriers.",
              "Input files are only read, never changed.")
          .aliases("analyse");

  private final RecordingInputOptions input = new RecordingInputOptions(spec);

  private final OutputOptions output =
      new OutputOptions(spec, OutputOptions.ANALYSIS_FORMATS, OutputOptions.ANALYSIS_FORMATS_HELP);

  private final TextReportOptions text = new TextReportOptions(spec);

  private GroupBy groupBy = GroupBy.CULPRIT;

  private final AttributionOptions attribution;

  AnalyzeCommand() {
    spec.addOption(
        Specs.option(() -> groupBy, v -> groupBy = v, "--group-by")
            .paramLabel("GROUPING")
            .type(GroupBy.class)
            .converters(new GroupByConverter())
            .completionCandidates(new Groupings())
            .description(
                "culprit (default): who holds the carrier (docs/attribution.md); stack: each"
                    + " distinct stack; top-frame: the first frame not loaded by the boot loader,"
                    + " as 'jfr view pinned-threads' groups; reason: the pinned reason (JDK 24+).")
            .build());
    attribution = new AttributionOptions(spec);
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  static final class Groupings extends OptionValues {
    Groupings() {
      super(java.util.Arrays.stream(GroupBy.values()).map(GroupBy::label).toList());
    }
  }

  @Override
  public Integer call() {
    List<RecordingInput> inputs = input.resolve();
    Analysis analysis =
        attribution.analyze(
            inputs, groupBy, output.machineReadable() ? null : spec.commandLine().getErr());
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.Analyzed(analysis, Advisor.standard().advise(analysis)),
        spec.commandLine().getOut(),
        RecordingInputOptions.files(inputs));
    return ExitCode.OK.code();
  }
}
