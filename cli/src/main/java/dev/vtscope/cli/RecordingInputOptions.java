package dev.vtscope.cli;

import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** The recordings a command reads: files, folders of recordings, or JFR repository folders. */
final class RecordingInputOptions {

  /** What is said when standard input is named more than once: it can be read only once. */
  static final String STDIN_TWICE =
      "- (standard input) is given more than once; it can be read once: give it once";

  private List<Path> paths;

  private boolean recursive;

  RecordingInputOptions(CommandSpec spec) {
    this(spec, "");
  }

  /**
   * @param more what the command takes besides recordings, said after them in the help, or ""
   */
  RecordingInputOptions(CommandSpec spec, String more) {
    spec.addPositional(
        Specs.parameters(() -> paths, v -> paths = v)
            .paramLabel("FILE")
            .required(true)
            .arity("1..*")
            .type(List.class)
            .auxiliaryTypes(Path.class)
            .description(
                "JFR recordings: files, folders of .jfr files, or a JVM's JFR repository folder;"
                    + " - reads one from standard input. Several are merged into one report that"
                    + " lists each."
                    + more)
            .build());
    spec.addOption(
        Specs.flag(
            () -> recursive,
            v -> recursive = v,
            "Look for recordings in the sub-folders of the folders given, too.",
            "-r",
            "--recursive"));
  }

  /** The files {@code inputs} read, which no output of a command may replace. */
  static List<Path> files(List<RecordingInput> inputs) {
    return inputs.stream().flatMap(input -> input.files().stream()).toList();
  }

  /** The paths given, as given. */
  List<Path> paths() {
    return paths;
  }

  /** Whether sub-folders are searched too. */
  boolean recursive() {
    return recursive;
  }

  List<RecordingInput> resolve() {
    return resolve(paths, recursive);
  }

  /**
   * The recordings {@code paths} name, for a command that takes them other than as its operands
   * ({@code scan --recording}); a path that is not one is an {@link ExitException}.
   */
  static List<RecordingInput> resolve(List<Path> paths, boolean recursive) {
    if (paths.stream().filter(p -> p.toString().equals(RecordingInputs.STDIN)).count() > 1) {
      throw new ExitException(ExitCode.USAGE, STDIN_TWICE);
    }
    StandardInput.refuseUnusable(paths);
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
