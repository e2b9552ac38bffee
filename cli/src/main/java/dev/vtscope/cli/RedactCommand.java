package dev.vtscope.cli;

import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.NotARecordingException;
import dev.vtscope.recording.RecordingRedactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code vtscope redact}: a copy of a recording that is safe to share. */
@Command(
    name = "redact",
    header = "Writes a copy of a recording without environment details",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a copy of a recording without the environment variables, the process list, native"
          + " library paths and the recording's destination, keeping of the system properties only"
          + " the JDK's identity and jdk.virtualThreadScheduler.*. The input is not changed.",
      "Command lines (jdk.JVMInformation) are kept as they are: record with relative paths."
    })
final class RedactCommand implements Callable<Integer> {

  @Spec private picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "INPUT", description = "The recording to copy.")
  private Path input;

  @Parameters(
      index = "1",
      paramLabel = "OUTPUT",
      description = "Where to write the copy; must not exist.")
  private Path output;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  private boolean verbose;

  @Override
  public Integer call() {
    if (!Files.isRegularFile(input) || !Files.isReadable(input)) {
      throw new ExitException(ExitCode.INPUT_UNREADABLE, input + ": no such readable file");
    }
    if (Files.exists(output)) {
      throw new ExitException(
          ExitCode.USAGE,
          output + ": already exists; vtscope never overwrites a file, choose another name");
    }
    try {
      ChunkScanner.scan(input);
    } catch (NotARecordingException e) {
      throw new ExitException(ExitCode.NOT_A_RECORDING, input + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, input + ": cannot read (" + e.getMessage() + ")");
    }
    try {
      RecordingRedactor.redact(input, output);
    } catch (IOException | RuntimeException e) {
      throw new ExitException(
          ExitCode.NOT_A_RECORDING,
          input + ": could not copy the recording (" + e.getMessage() + ")",
          e);
    }
    spec.commandLine().getOut().println("wrote " + output);
    return ExitCode.OK.code();
  }
}
