package dev.vtscope.cli;

import dev.vtscope.files.AtomicFile;
import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.NotARecordingException;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.recording.RecordingRedactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope redact}: a copy of a recording that is safe to share. */
final class RedactCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "redact",
          "Writes a copy of a recording without environment details",
          "Writes a copy of a recording without the environment variables, the process list, native"
              + " library paths and the recording's destination, keeping of the system properties"
              + " only the JDK's identity and jdk.virtualThreadScheduler.*. The input is not"
              + " changed.",
          "Command lines (jdk.JVMInformation) are kept as they are: record with relative paths.");

  private Path input;

  private Path output;

  RedactCommand() {
    spec.addPositional(
        Specs.parameters(() -> input, v -> input = v)
            .paramLabel("INPUT")
            .required(true)
            .arity("1")
            .index("0")
            .type(Path.class)
            .description("The recording to copy; - reads it from standard input.")
            .build());
    spec.addPositional(
        Specs.parameters(() -> output, v -> output = v)
            .paramLabel("OUTPUT")
            .required(true)
            .arity("1")
            .index("1")
            .type(Path.class)
            .description(
                "Where to write the copy; a file must not exist. A device or a pipe"
                    + " (/dev/stdout) is written to.")
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
    if (output.toString().equals(RecordingInputs.STDIN)) {
      throw new ExitException(
          ExitCode.USAGE,
          "OUTPUT is a file to write the copy to; - (standard output) is not one: name"
              + " /dev/stdout to write the recording there");
    }
    // a device or a pipe (/dev/stdout, a mkfifo) is written, never replaced: only a file is kept
    if (!AtomicFile.writtenInPlace(output) && Files.exists(output)) {
      throw new ExitException(
          ExitCode.USAGE,
          output + ": already exists; vtscope never overwrites a file, choose another name");
    }
    if (Files.isDirectory(this.input)) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE,
          this.input + ": a folder; redact copies one recording: name its file");
    }
    StandardInput.refuseUnusable(List.of(this.input));
    // the one way inputs are read: a file in place, standard input and pipes copied
    List<RecordingInput> inputs;
    try {
      inputs = RecordingInputs.resolve(List.of(this.input));
    } catch (InputProblemException e) {
      throw new ExitException(
          e.notARecording() ? ExitCode.NOT_A_RECORDING : ExitCode.INPUT_UNREADABLE, e.getMessage());
    }
    Path input = inputs.get(0).files().get(0);
    try {
      ChunkScanner.scan(input);
    } catch (NotARecordingException e) {
      throw new ExitException(ExitCode.NOT_A_RECORDING, this.input + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, this.input + ": cannot read (" + e.getMessage() + ")");
    }
    Path source = input;
    OutputFile.writeFile(
        output,
        copy -> {
          try {
            RecordingRedactor.redact(source, copy);
          } catch (RuntimeException e) {
            // the JDK's reader failing on a chunk the scan let pass; what it writes fails as an
            // IOException
            throw new ExitException(
                ExitCode.NOT_A_RECORDING,
                this.input + ": could not copy the recording (" + e.getMessage() + ")",
                e);
          }
        });
    // the copy may have gone to standard output: the line is not to follow it there
    (AtomicFile.writtenInPlace(output) ? spec.commandLine().getErr() : spec.commandLine().getOut())
        .println("wrote " + output);
    return ExitCode.OK.code();
  }
}
