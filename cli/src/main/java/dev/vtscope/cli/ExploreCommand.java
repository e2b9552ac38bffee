package dev.vtscope.cli;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.recording.RecordingInput;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Model.CommandSpec;

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
              + " Markdown or HTML.",
          "Tab completes commands, site numbers and frame names; the arrows walk the history. Not"
              + " on a terminal, it reads one command a line (vtscope explore vt.jfr <"
              + " commands.txt).");

  private final RecordingInputOptions input = new RecordingInputOptions(spec);

  private final AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.REPORT);

  ExploreCommand() {
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    List<RecordingInput> inputs = input.resolve();
    Analyzer analyzer = analysisOptions.analyzer(inputs, spec.commandLine().getErr());
    Analysis analysis = analysisOptions.analyze(analyzer, inputs);
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
      new Explorer(analyzer, analysis, analysisOptions, inputs).run(terminal);
    } catch (IOException e) {
      throw new ExitException(ExitCode.INTERNAL_ERROR, "no terminal: " + e.getMessage(), e);
    }
    return ExitCode.OK.code();
  }
}
