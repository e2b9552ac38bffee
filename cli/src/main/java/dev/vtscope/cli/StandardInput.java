package dev.vtscope.cli;

import dev.vtscope.recording.RecordingInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;

/**
 * What standard input is when {@code -} asks for a recording from it. A terminal would make the
 * command wait, silently, for bytes a person cannot type; a closed one ({@code <&-}) leaves its
 * number to the first file the JVM opens, which would then be read as the recording. Both are
 * refused at once, in one line. Known where {@code /proc/self/fd} is (Linux); elsewhere nothing is
 * refused.
 */
final class StandardInput {

  private StandardInput() {}

  /** Refuses {@code -} among {@code paths} when standard input cannot give a recording. */
  static void refuseUnusable(Collection<Path> paths) {
    if (paths.stream().noneMatch(p -> p.toString().equals(RecordingInputs.STDIN))) {
      return;
    }
    String problem =
        problem(Path.of("/proc/self/fd/0"), Path.of(System.getProperty("java.home", "/")));
    if (problem != null) {
      throw new ExitException(ExitCode.USAGE, problem);
    }
  }

  /**
   * Why the standard input that {@code descriptor} (its {@code /proc} link) names cannot give a
   * recording, or null.
   *
   * @param javaHome the running JDK, whose files the JVM opened itself
   */
  static String problem(Path descriptor, Path javaHome) {
    Path folder = descriptor.getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      return null; // no /proc: not known
    }
    if (!Files.exists(descriptor, LinkOption.NOFOLLOW_LINKS)) {
      return CLOSED;
    }
    try {
      String target = Files.readSymbolicLink(descriptor).toString();
      if (target.matches("/dev/(pts/\\d+|tty\\w*|console)")) {
        return "- reads a recording from standard input, which is a terminal: give a file, or"
            + " send one in (< app.jfr, or a pipe)";
      }
      // A closed standard input takes the number of the first file the JVM opens, its lib/modules:
      // no one sends the JDK's own files in.
      if (Path.of(target).startsWith(javaHome.toRealPath())) {
        return CLOSED;
      }
    } catch (IOException | RuntimeException e) {
      return null; // not known: read as it is
    }
    return null;
  }

  private static final String CLOSED =
      "- reads a recording from standard input, which is closed: give a file, or send one in (<"
          + " app.jfr, or a pipe)";
}
