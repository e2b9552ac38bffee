package dev.vtscope.live;

import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * Stops vtscope's recording in a running JVM also when vtscope itself is stopped (Ctrl-C, a kill):
 * a shutdown hook while it is open, and the recording stopped when it is closed. A recording left
 * running would go on filling the JVM's repository after vtscope is gone.
 */
public final class StopRecordingOnExit implements AutoCloseable {

  private final TargetRecording recording;
  private final String command;
  private final PrintWriter stderr;
  private final Thread hook;

  private StopRecordingOnExit(
      TargetRecording recording,
      String command,
      String note,
      Supplier<String> kept,
      PrintWriter stderr) {
    this.recording = recording;
    this.command = command;
    this.stderr = stderr;
    this.hook =
        new Thread(
            () -> {
              try {
                recording.stop(null);
                stderr.println(
                    "vtscope "
                        + command
                        + ": "
                        + note
                        + "stopped recording "
                        + recording.name()
                        + " in pid "
                        + recording.pid()
                        + kept.get());
              } catch (LiveException e) {
                stderr.println("vtscope " + command + ": " + note + e.getMessage());
              }
              stderr.flush();
            },
            "vtscope-stop-recording");
  }

  /**
   * Installs the hook for {@code recording}.
   *
   * @param command the vtscope command whose messages these are, e.g. {@code watch}
   * @param note what the hook's message says first, e.g. {@code "interrupted; "}, or empty
   * @param kept what the hook's message says last, as vtscope stops: where the recording is, or
   *     empty
   * @param stderr where what happens is said
   */
  public static StopRecordingOnExit install(
      TargetRecording recording,
      String command,
      String note,
      Supplier<String> kept,
      PrintWriter stderr) {
    StopRecordingOnExit stopper = new StopRecordingOnExit(recording, command, note, kept, stderr);
    Runtime.getRuntime().addShutdownHook(stopper.hook);
    return stopper;
  }

  /**
   * Stops the recording (nothing when it has stopped already, or the JVM has exited) and removes
   * the hook.
   */
  @Override
  public void close() {
    try {
      recording.stop(null);
    } catch (LiveException e) {
      stderr.println("vtscope " + command + ": " + e.getMessage());
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // shutting down already: the hook runs
    }
  }
}
