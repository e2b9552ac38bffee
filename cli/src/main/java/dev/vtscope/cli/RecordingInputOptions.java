package dev.vtscope.cli;

import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Parameters;

/** The recordings a command reads: files, folders of recordings, or JFR repository folders. */
final class RecordingInputOptions {

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description =
          "JFR recordings: files, folders of .jfr files, or a JVM's JFR repository folder;"
              + " - reads one from standard input. Several are merged into one report that lists"
              + " each.")
  private List<Path> paths;

  @picocli.CommandLine.Option(
      names = {"-r", "--recursive"},
      description = "Look for recordings in the sub-folders of the folders given, too.")
  private boolean recursive;

  List<RecordingInput> resolve() {
    try {
      return RecordingInputs.resolve(paths, recursive);
    } catch (InputProblemException e) {
      // a message that already says what to do needs no second bracket
      String message = e.getMessage();
      throw new ExitException(
          e.notARecording() ? ExitCode.NOT_A_RECORDING : ExitCode.INPUT_UNREADABLE,
          message.endsWith(")") || message.startsWith("-:")
              ? message
              : message + " (check the path)");
    }
  }
}
