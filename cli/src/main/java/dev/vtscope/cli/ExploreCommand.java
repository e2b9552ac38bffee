package dev.vtscope.cli;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code vtscope explore FILE...}: an interactive shell over one analysis. */
final class ExploreCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "explore",
          "Explores an analysis in an interactive shell",
          "Opens a shell over the analysis of the recordings, read once: list findings and sites,"
              + " open a site's whole stack, filter by package, class, kind or duration, group the"
              + " sites another way, compare with another recording, save the report as text, JSON,"
              + " Markdown, HTML, OpenMetrics or OTLP JSON. Given thread dumps (a file, or a folder of one JVM's"
              + " dumps) instead, lists what their threads wait for: open a wait's threads and"
              + " stack, keep one kind of wait or the threads of a name, save the report.",
          "On a terminal, Tab completes commands, their words (sections, groupings, formats), site"
              + " and finding numbers, frame names after filter, recordings after compare and file"
              + " names after save; the arrows walk the history.",
          "Not on a terminal (vtscope explore vt.jfr < commands.txt), it reads one command a line,"
              + " with no prompt: the answers go to standard output, a command it refuses to"
              + " standard error as one line naming its line, and it exits 2 when it refused one"
              + " (the other lines still run). The recordings cannot come from standard input,"
              + " which holds the commands: give their files, or use 'vtscope analyze -'.");

  private final RecordingInputOptions input = new RecordingInputOptions(spec);

  private final AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.EXPLORE);

  ExploreCommand() {
    // the recordings' own words: standard input, which the other commands read, holds the commands
    PositionalParamSpec files = spec.positionalParameters().get(0);
    spec.remove(files);
    spec.addPositional(
        files.toBuilder()
            .description(
                "JFR recordings: files, folders of .jfr files, or a JVM's JFR repository folder"
                    + " (not -: standard input holds the commands). Several are explored as one"
                    + " analysis that lists each. Or thread dumps (docs/thread-dumps.md): files,"
                    + " or a folder of dumps of one JVM, which are a series.")
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
    refuseStandardInput();
    Explorer explorer;
    if (DumpInputs.areDumps(input.paths(), input.recursive())) {
      explorer = dumps();
    } else {
      List<RecordingInput> inputs = input.resolve();
      Analyzer analyzer = analysisOptions.analyzer(inputs, spec.commandLine().getErr());
      Analysis analysis = analysisOptions.analyze(analyzer, inputs);
      explorer = new Explorer(analyzer, analysis, analysisOptions, inputs);
    }
    if (!(System.console() != null && TerminalFacts.consoleIsTerminal())) {
      // commands from a file or a pipe, or answers into one: no prompt, no line editing
      try {
        boolean answered =
            explorer.runScript(
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
        return answered ? ExitCode.OK.code() : ExitCode.USAGE.code();
      } catch (IOException e) {
        throw new ExitException(
            ExitCode.INPUT_UNREADABLE, "cannot read the commands: " + e.getMessage(), e);
      }
    }
    // jline's exec provider (stty) needs no native library, which the JVM would warn of loading
    System.setProperty("org.jline.terminal.provider", "exec");
    try (Terminal terminal =
        TerminalBuilder.builder()
            .system(true)
            .dumb(true)
            .jni(false)
            .ffm(false)
            .jna(false)
            .build()) {
      explorer.run(terminal);
    } catch (IOException e) {
      throw new ExitException(ExitCode.INTERNAL_ERROR, "no terminal: " + e.getMessage(), e);
    }
    return ExitCode.OK.code();
  }

  /** Thread dumps given: a shell over what their threads wait for. */
  private Explorer dumps() {
    AnalysisOptions options = analysisOptions.options();
    return new Explorer(
        DumpInputs.analyze(
            "explore", input.paths(), input.recursive(), options, spec.commandLine().getErr()),
        options.appPackages(),
        input.paths());
  }

  /**
   * Standard input holds explore's commands, so it cannot hold a recording as well: a recording
   * piped in would be read as commands, and a terminal cannot be both.
   */
  private void refuseStandardInput() {
    List<?> named = spec.positionalParameters().get(0).getValue();
    if (named != null && named.stream().anyMatch(p -> RecordingInputs.STDIN.equals(p.toString()))) {
      throw new ExitException(
          ExitCode.USAGE,
          "- (standard input) holds explore's commands, so it cannot hold a recording: give the"
              + " recording's file (vtscope explore vt.jfr), or analyse standard input with"
              + " 'vtscope analyze -'");
    }
  }
}
