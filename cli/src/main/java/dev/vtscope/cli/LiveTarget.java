package dev.vtscope.cli;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.LocalJvm;
import dev.vtscope.live.LocalJvms;
import dev.vtscope.live.TargetRecording;
import dev.vtscope.record.ChildRecording;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * The running JVM of {@code record --pid} and {@code watch --pid}: checked before anything starts
 * in it, and vtscope's recording started there with vtscope's settings.
 *
 * @param jvm what the Attach API says of it
 */
record LiveTarget(long pid, LocalJvm jvm) {

  /**
   * The JVM with this pid, refused in one line when there is no such process or its JDK has no
   * virtual threads.
   */
  static LiveTarget describe(long pid) {
    LocalJvm jvm;
    try {
      jvm = LocalJvms.find(pid).orElse(null);
    } catch (LiveException e) {
      throw ExitException.of(e);
    }
    if (jvm == null) {
      // Not attached to: the Attach API signals the process, which ends one that is not a JVM.
      throw new ExitException(
          ExitCode.TARGET_JVM,
          (TargetRecording.alive(pid)
                  ? "pid "
                      + pid
                      + " is not a JVM vtscope can attach to (another user's, or started"
                      + " with -XX:-UsePerfData or -XX:+DisableAttachMechanism)"
                  : "no process with pid " + pid)
              + "; 'vtscope jvms' lists the JVMs to attach to");
    }
    int first = Knowledge.standard().jdk().virtualThreadsFinalIn();
    if (jvm != null && jvm.feature() > 0 && jvm.feature() < first) {
      throw new ExitException(
          ExitCode.NO_JAVA,
          "pid "
              + pid
              + " runs JDK "
              + jvm.javaVersion()
              + ", which has no virtual threads (they are final in JDK "
              + first
              + "): nothing to record");
    }
    return new LiveTarget(pid, jvm);
  }

  /** What to call it in a message: its JDK and what it runs. */
  String summary() {
    String main = jvm.main().length() > 60 ? jvm.main().substring(0, 59) + "…" : jvm.main();
    return "JDK "
        + (jvm.javaVersion() == null ? "unknown" : jvm.javaVersion())
        + (main.isEmpty() ? "" : ", " + main);
  }

  /**
   * Starts vtscope's recording in the JVM, with vtscope's settings: the settings go to a temporary
   * file the JVM reads while it starts the recording.
   */
  static TargetRecording start(long pid, String threshold, Duration duration, Path destination)
      throws LiveException {
    Path settings;
    try {
      settings = Files.createTempFile("vtscope-", ".jfc");
      // Ctrl-C while the JVM starts the recording: the finally block below never runs then
      settings.toFile().deleteOnExit();
      try (InputStream in = ChildRecording.settings()) {
        Files.copy(in, settings, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INTERNAL_ERROR,
          "cannot write vtscope's JFR settings to a temporary file: " + e.getMessage(),
          e);
    }
    try {
      return TargetRecording.start(pid, settings, threshold, duration, destination);
    } finally {
      try {
        Files.deleteIfExists(settings);
      } catch (IOException e) {
        // a temporary file: the system cleans it up
      }
    }
  }
}
