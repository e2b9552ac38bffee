package dev.vtscope.live;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * vtscope's JFR recording in a running JVM, started and stopped with the JDK's diagnostic commands
 * ({@code JFR.start}, {@code JFR.stop}) under a name of its own ({@code vtscope-…}), so that it
 * never touches a recording the JVM's owner started. Each command attaches anew: a stop from a
 * shutdown hook does not depend on a connection another thread holds.
 */
public final class TargetRecording {

  private final long pid;
  private final String name;
  private volatile boolean stopped;

  private TargetRecording(long pid, String name) {
    this.pid = pid;
    this.name = name;
  }

  /**
   * Starts a recording.
   *
   * @param pid the JVM
   * @param settings a {@code .jfc} file the JVM can read
   * @param pinnedThreshold threshold of {@code jdk.VirtualThreadPinned}, e.g. {@code 20ms}
   * @param duration when the JVM stops the recording by itself, or null for never: it then ends
   *     even if vtscope is killed
   * @param destination where the JVM writes the recording when it stops, also when it exits
   *     meanwhile; or null for nowhere
   */
  public static TargetRecording start(
      long pid, Path settings, String pinnedThreshold, Duration duration, Path destination)
      throws LiveException {
    String name =
        "vtscope-"
            + ProcessHandle.current().pid()
            + "-"
            + Long.toString(System.currentTimeMillis(), 36);
    List<String> command = new ArrayList<>();
    command.add("JFR.start");
    command.add("name=" + name);
    command.add("settings=" + quoted(settings.toAbsolutePath().toString()));
    command.add("jdk.VirtualThreadPinned#threshold=" + pinnedThreshold.replace(" ", ""));
    if (duration != null) {
      command.add("duration=" + Math.max(1, duration.toSeconds()) + "s");
    }
    if (destination != null) {
      command.add("filename=" + quoted(destination.toAbsolutePath().toString()));
      command.add("dumponexit=true");
    }
    String answer = run(pid, String.join(" ", command));
    if (!answer.contains("Started recording")) {
      throw new LiveException(
          answer.contains("Unknown diagnostic command")
              ? LiveException.Reason.UNSUITABLE_JVM
              : LiveException.Reason.COMMAND_FAILED,
          "pid "
              + pid
              + " did not start a JFR recording: "
              + firstLine(answer)
              + (answer.contains("Unknown diagnostic command")
                  ? " (its Java runtime has no JFR, module jdk.jfr)"
                  : ""));
    }
    return new TargetRecording(pid, name);
  }

  public long pid() {
    return pid;
  }

  /** The recording's name in the JVM, e.g. {@code vtscope-4242-m3k2x1}. */
  public String name() {
    return name;
  }

  /** The JVM's JFR repository: the folder it writes the chunks of every recording to. */
  public Path repository() throws LiveException {
    String answer = run(pid, "JFR.configure");
    for (String line : answer.split("\\R")) {
      String t = line.strip();
      if (t.startsWith("Repository path:")) {
        String path = t.substring("Repository path:".length()).strip();
        if (!path.isEmpty() && !path.equals("N/A")) {
          return Path.of(path);
        }
      }
    }
    throw new LiveException(
        LiveException.Reason.COMMAND_FAILED,
        "pid " + pid + " did not say where its JFR repository is: " + firstLine(answer));
  }

  /** Whether the recording still runs: false once stopped, or when the JVM has exited. */
  public boolean running() throws LiveException {
    if (stopped || !alive(pid)) {
      return false;
    }
    String answer;
    try {
      answer = run(pid, "JFR.check name=" + name);
    } catch (LiveException e) {
      if (!alive(pid)) {
        return false;
      }
      throw e;
    }
    return answer.contains("name=" + name) && answer.contains("(running)");
  }

  /**
   * Stops the recording; the JVM writes it to {@code destination} when one is given (or to the
   * destination it was started with). Does nothing when it has stopped already or the JVM has
   * exited.
   */
  public synchronized void stop(Path destination) throws LiveException {
    if (stopped) {
      return;
    }
    if (!running()) {
      stopped = true; // the JVM stopped it at the end of its duration, or has exited
      return;
    }
    String command = "JFR.stop name=" + name;
    if (destination != null) {
      command += " filename=" + quoted(destination.toAbsolutePath().toString());
    }
    String answer;
    try {
      answer = run(pid, command);
    } catch (LiveException e) {
      if (!alive(pid)) {
        stopped = true;
        return;
      }
      throw e;
    }
    if (!answer.contains("Stopped recording") && running()) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "pid " + pid + " did not stop recording " + name + ": " + firstLine(answer));
    }
    stopped = true;
  }

  /**
   * Waits for a recording started with {@code duration} to end: the JVM stops it and writes it to
   * its destination. Returns false when the JVM exited before the duration was over (it wrote the
   * recording as it exited, unless it was killed).
   */
  public boolean awaitEnd(Duration duration) throws LiveException, InterruptedException {
    long deadline = System.nanoTime() + duration.toNanos();
    while (System.nanoTime() < deadline) {
      if (!alive(pid)) {
        return false;
      }
      Thread.sleep(Math.max(1, Math.min(200, (deadline - System.nanoTime()) / 1_000_000)));
    }
    // The JVM stops the recording at the end of its duration, then writes it: a moment later.
    long writeDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (running()) {
      if (System.nanoTime() > writeDeadline) {
        stop(null);
        break;
      }
      Thread.sleep(100);
    }
    return true;
  }

  /** Whether the process is still there. */
  public static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static String run(long pid, String command) throws LiveException {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      return jvm.execute(command);
    }
  }

  /** A value of a diagnostic command, quoted when it holds a space (the JVM splits on spaces). */
  private static String quoted(String value) {
    return value.contains(" ") ? "\"" + value + "\"" : value;
  }

  private static String firstLine(String answer) {
    for (String line : answer.split("\\R")) {
      if (!line.isBlank()) {
        return line.strip();
      }
    }
    return "(no answer)";
  }
}
