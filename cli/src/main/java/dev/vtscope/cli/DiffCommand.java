package dev.vtscope.cli;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.gate.AllowList;
import dev.vtscope.gate.DiffResult;
import dev.vtscope.gate.Differ;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.report.Report;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope diff BEFORE AFTER}: what a change fixed and what it broke. */
final class DiffCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "diff",
          "Compares two recordings culprit by culprit",
          "Compares two recordings culprit by culprit (kind and method; line numbers may move):"
              + " fixed, new, worse, better or same, by events and total time. Exit 7 when a"
              + " culprit is new (1 ms or more) or worse, other than warm-up (the JDK's classes)"
              + " and --allow entries, or more tasks were rejected, or a recording could record no"
              + " pin (jdk.VirtualThreadPinned off: pinning is not compared); compare recordings of"
              + " the same load and length.",
          "Input files are only read, never changed.");

  private Path before;

  private Path after;

  private final AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.GATE);

  private final OutputOptions output;

  private double tolerance = 10;

  private List<String> allow = List.of();

  DiffCommand() {
    spec.addPositional(
        Specs.parameters(() -> before, v -> before = v)
            .paramLabel("BEFORE")
            .required(true)
            .arity("1")
            .index("0")
            .type(Path.class)
            .description("The recording before the change.")
            .build());
    spec.addPositional(
        Specs.parameters(() -> after, v -> after = v)
            .paramLabel("AFTER")
            .required(true)
            .arity("1")
            .index("1")
            .type(Path.class)
            .description("The recording after the change.")
            .build());
    output =
        new OutputOptions(
            spec,
            OutputOptions.formats(
                ReportFormat.TEXT,
                "each culprit fixed, new, worse, better or the same",
                ReportFormat.JSON,
                "the document of docs/vtscope-diff.schema.json",
                ReportFormat.MARKDOWN,
                "a table of what changed, for a pull request"));
    spec.addOption(
        Specs.option(() -> tolerance, v -> tolerance = v, "--tolerance")
            .paramLabel("PERCENT")
            .type(double.class)
            .description(
                "Changes of total time within this percentage (or under 1 ms) are 'same' (default:"
                    + " ${DEFAULT-VALUE}).")
            .build());
    spec.addOption(
        Specs.option(() -> allow, v -> allow = v, "--allow")
            .paramLabel("CLASS_OR_PACKAGE")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .splitRegex(",")
            .description(
                "Culprits to tolerate, as for check: a package (org.h2), a class, or Class.method."
                    + " They are listed but never a regression. Repeat or separate with commas.")
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
    if (!(tolerance >= 0 && tolerance < 1000)) {
      throw new ExitException(ExitCode.USAGE, "--tolerance takes a percentage from 0 to 999");
    }
    if (before.toString().equals(RecordingInputs.STDIN)
        && after.toString().equals(RecordingInputs.STDIN)) {
      throw new ExitException(ExitCode.USAGE, RecordingInputOptions.STDIN_TWICE);
    }
    StandardInput.refuseUnusable(List.of(before, after));
    Analysis b = analyze(before);
    Analysis a = analyze(after);
    DiffResult result = Differ.diff(b, a, tolerance / 100, new AllowList(allow));
    output.print(
        output.renderer(),
        new Report.Compared(result),
        spec.commandLine().getOut(),
        List.of(before, after));
    return result.passed() ? ExitCode.OK.code() : ExitCode.REGRESSION.code();
  }

  private Analysis analyze(Path path) {
    try {
      return analysisOptions.analyze(
          RecordingInputs.resolve(List.of(path)),
          output.machineReadable() ? null : spec.commandLine().getErr());
    } catch (InputProblemException e) {
      throw e.notARecording()
          ? new ExitException(ExitCode.NOT_A_RECORDING, e.getMessage())
          : new ExitException(ExitCode.INPUT_UNREADABLE, e.getMessage() + " (check the path)");
    }
  }
}
