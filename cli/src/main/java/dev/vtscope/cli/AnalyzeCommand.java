package dev.vtscope.cli;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.RecordingProblemException;
import dev.vtscope.recording.JfrStreamReader;
import dev.vtscope.recording.RecordingInput;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code vtscope analyze}: load, analyse, render. */
@Command(
    name = "analyze",
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
      description =
          "culprit (default): who holds the carrier (docs/attribution.md); stack: each distinct"
              + " stack; top-frame: the first frame not loaded by the boot loader, as 'jfr view"
              + " pinned-threads' groups; reason: the pinned reason (JDK 24+).")
  private GroupBy groupBy = GroupBy.CULPRIT;

  @Option(
      names = {"--classpath", "-cp"},
      paramLabel = "PATH",
      split = "${sys:path.separator}",
      description =
          "Jars and folders of the recorded application, to find synchronized blocks (JDK 21-23)"
              + " and name artifacts. The recording's own java.class.path is searched after it,"
              + " where its files exist on this machine; JDK classes come from the running JDK"
              + " when it is the recording's release.")
  private List<Path> classPath = List.of();

  @Option(
      names = "--app-package",
      paramLabel = "PREFIX",
      split = ",",
      description =
          "Package prefixes of your application (e.g. com.acme). Default: the first two package"
              + " segments of the outermost frame that is neither the JDK's nor a known server or"
              + " test framework's, i.e. the code that started the thread's task.")
  private List<String> appPackages = List.of();

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  private boolean verbose;

  @Override
  public Integer call() {
    List<RecordingInput> inputs = input.resolve();
    Analysis analysis;
    try {
      analysis =
          new Analyzer(new JfrStreamReader(), new AnalysisOptions(groupBy, classPath, appPackages))
              .analyze(inputs);
    } catch (RecordingProblemException e) {
      throw new ExitException(
          e.unreadable() ? ExitCode.INPUT_UNREADABLE : ExitCode.NOT_A_RECORDING,
          e.getMessage()
              + (e.unreadable()
                  ? ""
                  : " (vtscope reads whole .jfr files written by JDK 11 or later)"),
          e);
    }
    output.renderer(TerminalFacts.detect()).render(analysis, spec.commandLine().getOut());
    return ExitCode.OK.code();
  }
}
