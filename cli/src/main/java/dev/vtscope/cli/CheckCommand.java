package dev.vtscope.cli;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.gate.AllowList;
import dev.vtscope.gate.CheckPolicy;
import dev.vtscope.gate.CheckResult;
import dev.vtscope.gate.Checker;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.report.JUnitXmlReport;
import dev.vtscope.report.Report;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope check}: budgets and findings, for CI. */
final class CheckCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "check",
          "Checks recordings against pinning budgets, for CI",
          "Checks recordings against pinning budgets and vtscope's findings, for CI: exit 0 when"
              + " within budget, 6 when not. Prints one line per check; --junit writes JUnit XML.",
          "With no budget given, only findings are checked (--fail-on high by default). Given"
              + " thread dumps (a file, or a folder of one JVM's dumps), their findings are checked"
              + " the same way; a dump has no budget.",
          "Input files are only read, never changed.");

  private final RecordingInputOptions input =
      new RecordingInputOptions(
          spec,
          " Or thread dumps (docs/thread-dumps.md): files, or a folder of dumps of one JVM, whose"
              + " findings are checked.");

  private final AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.GATE);

  private String maxPinnedTotal;

  private Long maxPinnedEvents;

  private String maxSiteTotal;

  private String failOn = "high";

  private List<String> allow = List.of();

  private Path junit;

  private final OutputOptions output;

  /** The severities, lowest first, and none. */
  static final class FailOnValues extends OptionValues {
    FailOnValues() {
      super(
          java.util.stream.Stream.concat(
                  java.util.Arrays.stream(Severity.values()).map(Severity::label),
                  java.util.stream.Stream.of("none"))
              .toList());
    }
  }

  CheckCommand() {
    spec.addOption(
        Specs.option(() -> maxPinnedTotal, v -> maxPinnedTotal = v, "--max-pinned-total")
            .paramLabel("DURATION")
            .type(String.class)
            .description("Most pinned time allowed in total, e.g. 500ms or 2s.")
            .build());
    spec.addOption(
        Specs.option(() -> maxPinnedEvents, v -> maxPinnedEvents = v, "--max-pinned-events")
            .paramLabel("N")
            .type(Long.class)
            .description("Most pinned events allowed.")
            .build());
    spec.addOption(
        Specs.option(() -> maxSiteTotal, v -> maxSiteTotal = v, "--max-site-total")
            .paramLabel("DURATION")
            .type(String.class)
            .description("Most pinned time allowed at any one culprit.")
            .build());
    spec.addOption(
        failOnOption(
            () -> failOn,
            v -> failOn = v,
            "Fail on findings of this severity or higher: info, low, medium, high (default), or"
                + " none to ignore findings."));
    spec.addOption(
        Specs.option(() -> allow, v -> allow = v, "--allow")
            .paramLabel("CLASS_OR_PACKAGE")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .splitRegex(",")
            .description(
                "Pins to tolerate: a package (org.h2), a class, or Class.method. Allowed sites are"
                    + " not counted in budgets; findings whose blamed methods or classes are all"
                    + " allowed do not fail. Repeat or separate with commas.")
            .build());
    spec.addOption(
        Specs.option(() -> junit, v -> junit = v, "--junit")
            .paramLabel("FILE")
            .type(Path.class)
            .description(
                "Also write the checks as JUnit XML to FILE (replaced if it exists; not the file of"
                    + " -o).")
            .build());
    output =
        new OutputOptions(
            spec,
            OutputOptions.formats(
                ReportFormat.TEXT,
                "a line per check",
                ReportFormat.JSON,
                "the checks for a program (docs/json.md)",
                ReportFormat.MARKDOWN,
                "a table, for a pull-request comment or a CI job summary (docs/ci.md)"));
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    CheckPolicy policy =
        new CheckPolicy(
            maxPinnedTotal == null
                ? null
                : DurationParser.nanos(maxPinnedTotal, "--max-pinned-total"),
            positive(maxPinnedEvents),
            maxSiteTotal == null ? null : DurationParser.nanos(maxSiteTotal, "--max-site-total"),
            severity(failOn),
            new AllowList(allow));
    if (DumpInputs.areDumps(input.paths(), input.recursive())) {
      return dumps(policy);
    }
    List<RecordingInput> inputs = input.resolve();
    List<Path> read = RecordingInputOptions.files(inputs);
    refuseJunitFile(read);
    Analysis analysis = analysisOptions.analyze(inputs, spec.commandLine().getErr());
    Advice advice = Advisor.standard().advise(analysis);
    CheckResult result = Checker.check(analysis, advice, policy);
    return report(
        new Report.Checked(
            result, analysis.inputs().stream().map(dev.vtscope.analysis.InputFacts::name).toList()),
        read);
  }

  /** Thread dumps given: their findings checked, as a recording's; a dump has no budget. */
  private Integer dumps(CheckPolicy policy) {
    String budget =
        maxPinnedTotal != null
            ? "--max-pinned-total"
            : maxPinnedEvents != null
                ? "--max-pinned-events"
                : maxSiteTotal != null ? "--max-site-total" : null;
    if (budget != null) {
      throw new ExitException(
          ExitCode.USAGE,
          budget
              + ": a thread dump has no pinned time or events to budget; check dumps with"
              + " --fail-on alone, or give recordings");
    }
    refuseJunitFile(input.paths());
    DumpAnalysis analysis =
        DumpInputs.analyze(
            "check",
            input.paths(),
            input.recursive(),
            analysisOptions.options(),
            spec.commandLine().getErr());
    CheckResult result = Checker.checkDumps(analysis, DumpAdvisor.advise(analysis), policy);
    return report(new Report.Checked(result, analysis.names(), true), input.paths());
  }

  /** The --junit file must be neither a folder, nor an input, nor the file of -o. */
  private void refuseJunitFile(List<Path> read) {
    if (junit != null) {
      if (Files.isDirectory(junit)) {
        throw new ExitException(ExitCode.USAGE, "--junit " + junit + " is a folder, not a file");
      }
      OutputOptions.refuseRead("--junit", junit, read);
      output.refuseSameFile("--junit", junit);
    }
  }

  /** Prints the check, writes its JUnit XML when asked, and says by the exit code if it passed. */
  private Integer report(Report.Checked report, List<Path> read) {
    output.print(output.renderer(), report, spec.commandLine().getOut(), read);
    if (junit != null) {
      OutputFile.writeText(
          junit,
          spec.commandLine().getOut(),
          xml -> new JUnitXmlReport("vtscope check").render(report, xml));
    }
    return report.result().passed() ? ExitCode.OK.code() : ExitCode.CHECK_FAILED.code();
  }

  private static Long positive(Long value) {
    if (value != null && value < 0) {
      throw new ExitException(ExitCode.USAGE, "--max-pinned-events must be 0 or more");
    }
    return value;
  }

  /**
   * The {@code --fail-on SEVERITY} option of the commands that fail on findings (check, scan,
   * watch): one name, one set of values, one parser ({@link #severity}), each command's own words.
   */
  static picocli.CommandLine.Model.OptionSpec failOnOption(
      java.util.function.Supplier<String> get,
      java.util.function.Consumer<String> set,
      String description) {
    return Specs.option(get, set, "--fail-on")
        .paramLabel("SEVERITY")
        .type(String.class)
        .completionCandidates(new FailOnValues())
        .description(description)
        .build();
  }

  static Severity severity(String text) {
    if (text.trim().equalsIgnoreCase("none")) {
      return null;
    }
    Severity s = Severity.parse(text);
    if (s == null) {
      throw new ExitException(
          ExitCode.USAGE, "--fail-on takes info, low, medium, high or none, not '" + text + "'");
    }
    return s;
  }
}
