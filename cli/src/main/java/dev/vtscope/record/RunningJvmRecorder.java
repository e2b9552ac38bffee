package dev.vtscope.record;

import dev.vtscope.live.LiveException;
import dev.vtscope.live.StopRecordingOnExit;
import dev.vtscope.live.TargetRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code vtscope record --pid} once vtscope's recording runs in the JVM: waits out its duration,
 * stops it also when vtscope is interrupted, takes the JVM's thread dump as it ends, and says on
 * stderr what happened. The command starts the recording and analyses what was recorded.
 */
public final class RunningJvmRecorder {

  /**
   * What was recorded.
   *
   * @param recording the file the JVM wrote
   * @param exited whether the JVM exited before the duration was over
   * @param atEnd the JVM's threads as the recording ended, or null (it exited, or no dump)
   */
  public record Outcome(Path recording, boolean exited, JvmAtEnd atEnd) {}

  private final PrintWriter stderr;

  /**
   * @param stderr where what happens is said
   */
  public RunningJvmRecorder(PrintWriter stderr) {
    this.stderr = stderr;
  }

  /**
   * Waits for {@code recording} in the JVM {@code pid} to end after {@code length}, and stops it.
   *
   * @param target what to call the JVM in a message: its JDK and what it runs
   * @param out the file the JVM writes the recording to
   */
  public Outcome await(
      long pid, String target, TargetRecording recording, Duration length, Path out)
      throws RecordException, LiveException, IOException, InterruptedException {
    // Ctrl-C (or a kill) stops the recording in the target, which writes what it has to --out.
    StopRecordingOnExit stopper =
        StopRecordingOnExit.install(
            recording,
            "record",
            "interrupted; ",
            () -> Files.exists(out) ? "; what it recorded: " + out : "",
            stderr);
    long started = System.nanoTime();
    boolean exited;
    try {
      stderr.println(
          "vtscope record: recording pid "
              + pid
              + " ("
              + target
              + ") for "
              + dev.vtscope.analysis.HumanDurations.format(length.toNanos())
              + " as JFR recording "
              + recording.name()
              + " into "
              + out);
      stderr.flush();
      exited = !recording.awaitEnd(length);
    } finally {
      stopper.close(); // a no-op when the JVM stopped it at the end of its duration
    }
    // A pin that has not ended writes no event: what the carriers hold now comes from a thread
    // dump, taken as the recording ends.
    JvmAtEnd atEnd = exited ? null : JvmAtEnd.take(pid, stderr);
    long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    boolean written = Files.isRegularFile(out) && Files.size(out) > 0;
    if (!written && Files.isRegularFile(out)) {
      // the empty file the JVM opened for it: left there, it would refuse the same --out next time
      Files.deleteIfExists(out);
    }
    if (exited && !written) {
      throw new RecordException(
          RecordException.Problem.TARGET_JVM,
          "pid "
              + pid
              + " exited after "
              + seconds
              + " s, before it wrote its recording (was it killed?): nothing was recorded");
    }
    if (!written) {
      throw new RecordException(
          RecordException.Problem.TARGET_JVM,
          "pid " + pid + " wrote no recording to " + out + " (" + recording.name() + ")");
    }
    stderr.println(
        exited
            ? "vtscope record: pid "
                + pid
                + " exited after "
                + seconds
                + " s; its recording up to then: "
                + out
            : "vtscope record: recorded pid " + pid + "; recording: " + out);
    stderr.flush();
    return new Outcome(out, exited, atEnd);
  }
}
