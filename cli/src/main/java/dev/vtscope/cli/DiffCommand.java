package dev.vtscope.cli;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.gate.AllowList;
import dev.vtscope.gate.DiffResult;
import dev.vtscope.gate.Differ;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.report.JsonReport;
import dev.vtscope.report.MarkdownReport;
import dev.vtscope.report.Report;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code vtscope diff BEFORE AFTER}: what a change fixed and what it broke. */
@Command(
    name = "diff",
    header = "Compares two recordings culprit by culprit",
    mixinStandardHelpOptions = true,
    description = {
      "Compares two recordings culprit by culprit (kind and method; line numbers may move):"
          + " fixed, new, worse, better or same, by events and total time. Exit 7 when a culprit"
          + " is new (1 ms or more) or worse, other than warm-up (the JDK's classes) and --allow"
          + " entries, or more tasks were rejected; compare recordings of the same load and"
          + " length.",
      "Input files are only read, never changed."
    })
final class DiffCommand implements Callable<Integer> {

  enum Format {
    TEXT,
    JSON,
    MARKDOWN
  }

  static final class Formats extends OptionValues {
    Formats() {
      super(Format.class);
    }
  }

  @Spec private picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BEFORE", description = "The recording before the change.")
  private Path before;

  @Parameters(index = "1", paramLabel = "AFTER", description = "The recording after the change.")
  private Path after;

  @Mixin private AttributionOptions attribution;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      completionCandidates = Formats.class,
      description =
          "text (default), json (docs/vtscope-diff.schema.json) or markdown (a table of what"
              + " changed, for a pull request).")
  private Format format = Format.TEXT;

  @Option(
      names = "--tolerance",
      paramLabel = "PERCENT",
      description =
          "Changes of total time within this percentage (or under 1 ms) are 'same' (default:"
              + " ${DEFAULT-VALUE}).")
  private double tolerance = 10;

  @Option(
      names = "--allow",
      paramLabel = "CLASS_OR_PACKAGE",
      split = ",",
      description =
          "Culprits to tolerate, as for check: a package (org.h2), a class, or Class.method. They"
              + " are listed but never a regression. Repeat or separate with commas.")
  private List<String> allow = List.of();

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  private boolean verbose;

  @Override
  public Integer call() {
    if (!(tolerance >= 0 && tolerance < 1000)) {
      throw new ExitException(ExitCode.USAGE, "--tolerance takes a percentage from 0 to 999");
    }
    Analysis b = analyze(before);
    Analysis a = analyze(after);
    DiffResult result = Differ.diff(b, a, tolerance / 100, new AllowList(allow));
    ReportRenderer renderer =
        switch (format) {
          case JSON -> new JsonReport(VtScope.version());
          case MARKDOWN -> new MarkdownReport();
          case TEXT -> new TextReport(TextStyle.PLAIN);
        };
    renderer.render(new Report.Compared(result), spec.commandLine().getOut());
    return result.regression() ? ExitCode.REGRESSION.code() : ExitCode.OK.code();
  }

  private Analysis analyze(Path path) {
    try {
      return attribution.analyze(
          RecordingInputs.resolve(List.of(path)),
          GroupBy.CULPRIT,
          format == Format.TEXT ? spec.commandLine().getErr() : null);
    } catch (InputProblemException e) {
      throw e.notARecording()
          ? new ExitException(ExitCode.NOT_A_RECORDING, e.getMessage())
          : new ExitException(ExitCode.INPUT_UNREADABLE, e.getMessage() + " (check the path)");
    }
  }
}
