package dev.vtscope.cli;

import dev.vtscope.advice.Advisor;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.recording.RecordingInput;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code vtscope analyze}: load, analyse, render. */
@Command(
    name = "analyze",
    aliases = "analyse",
    header = "Reports where virtual threads pinned their carriers",
    mixinStandardHelpOptions = true,
    description = {
      "Reports where virtual threads pinned their carriers (jdk.VirtualThreadPinned), how long and"
          + " how many at once, where the scheduler rejected tasks (jdk.VirtualThreadSubmitFailed),"
          + " and, on JDK 21-23, monitor enters and waits that held carriers.",
      "Input files are only read, never changed."
    })
final class AnalyzeCommand implements Callable<Integer> {

  @Spec private picocli.CommandLine.Model.CommandSpec spec;

  @Mixin private RecordingInputOptions input;

  @Mixin private OutputOptions output;

  @Option(
      names = "--group-by",
      paramLabel = "GROUPING",
      converter = GroupByConverter.class,
      completionCandidates = Groupings.class,
      description =
          "culprit (default): who holds the carrier (docs/attribution.md); stack: each distinct"
              + " stack; top-frame: the first frame not loaded by the boot loader, as 'jfr view"
              + " pinned-threads' groups; reason: the pinned reason (JDK 24+).")
  private GroupBy groupBy = GroupBy.CULPRIT;

  static final class Groupings extends OptionValues {
    Groupings() {
      super(java.util.Arrays.stream(GroupBy.values()).map(GroupBy::label).toList());
    }
  }

  @Mixin private AttributionOptions attribution;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  private boolean verbose;

  @Override
  public Integer call() {
    List<RecordingInput> inputs = input.resolve();
    Analysis analysis =
        attribution.analyze(
            inputs, groupBy, output.machineReadable() ? null : spec.commandLine().getErr());
    java.io.PrintWriter out = output.writer(spec.commandLine().getOut(), inputs);
    output
        .renderer(TerminalFacts.detect())
        .render(analysis, Advisor.standard().advise(analysis), out);
    if (out != spec.commandLine().getOut()) {
      out.close();
    }
    return ExitCode.OK.code();
  }
}
