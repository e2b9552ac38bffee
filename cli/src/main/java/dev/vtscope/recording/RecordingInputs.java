package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the paths a user gave into recordings. A file is one recording; {@code -} is standard
 * input. A folder is searched for {@code .jfr} files, in any case (in its sub-folders too when
 * asked); the files of a JFR repository folder (named by the JVM like {@code
 * 2026_11_22_15_04_05.jfr}) are one recording, split in chunks; any other file is a recording of
 * its own.
 */
public final class RecordingInputs {

  /** The names the JVM gives the chunk files of its disk repository. */
  static final Pattern REPOSITORY_CHUNK =
      Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}(_\\d+)?\\.jfr");

  /**
   * The names the JVM gives a repository's folder for each process ({@code
   * 2026_11_22_15_04_05_4242}) inside the folder {@code -XX:FlightRecorderOptions:repository=}
   * names: read without {@code --recursive}, since that folder is the one users point at.
   */
  private static final Pattern REPOSITORY_FOLDER =
      Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d+");

  private RecordingInputs() {}

  /**
   * Resolves {@code paths}.
   *
   * @throws InputProblemException naming the first path that cannot be used
   */
  public static List<RecordingInput> resolve(List<Path> paths) throws InputProblemException {
    return resolve(paths, false);
  }

  /**
   * Resolves {@code paths}; {@code -} is standard input. Folders are searched for recordings in
   * their sub-folders too only when {@code recursive}.
   *
   * @throws InputProblemException naming the first path that cannot be used
   */
  public static List<RecordingInput> resolve(List<Path> paths, boolean recursive)
      throws InputProblemException {
    List<RecordingInput> inputs = new ArrayList<>();
    for (Path path : paths) {
      if (path.toString().equals(STDIN)) {
        inputs.add(new RecordingInput(STDIN, List.of(standardInput()), false));
        continue;
      }
      if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.exists(path)) {
        throw new InputProblemException(path + ": no such file or folder");
      }
      if (Files.isDirectory(path)) {
        inputs.addAll(fromFolder(path, recursive));
      } else if (isPipe(path)) {
        inputs.add(new RecordingInput(path.toString(), List.of(pipe(path)), false));
      } else {
        checkReadableFile(path);
        inputs.add(new RecordingInput(path.toString(), List.of(path), false));
      }
    }
    return inputs;
  }

  /** The name that stands for standard input. */
  public static final String STDIN = "-";

  /**
   * Standard input as a file: itself when it is one ({@code < vt.jfr}), read in place; else (a
   * pipe, a device) copied as {@link #pipe} copies.
   */
  private static Path standardInput() throws InputProblemException {
    Path stdin = Path.of("/dev/stdin");
    if (Files.isRegularFile(stdin) && Files.isReadable(stdin)) {
      return stdin;
    }
    return copy(STDIN, "standard input", () -> System.in);
  }

  /** The file type bits of a Unix file mode, and the type of a pipe. */
  private static final int FILE_TYPE = 0170000;

  private static final int FIFO = 0010000;

  /**
   * Whether {@code path} is a pipe: one a shell names for a process substitution ({@code <(zcat
   * vt.jfr.gz)} is {@code /dev/fd/63}) or a named one ({@code mkfifo}), read as standard input is.
   * Like {@code cat}, vtscope waits for a named pipe's writer. Devices and sockets are refused,
   * never opened.
   */
  private static boolean isPipe(Path path) {
    try {
      return Files.getAttribute(path, "unix:mode") instanceof Integer mode
          && (mode & FILE_TYPE) == FIFO;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return false; // no Unix file modes: no pipes by name
    }
  }

  /** The file type of a socket and of a character and a block device. */
  private static final int SOCKET = 0140000;

  /**
   * Why {@code path} is not a file to open and read as a recording, or null when it is one (or is
   * not there, which reading says). A named pipe found in a folder is never opened: with no writer
   * it would wait forever; named on its own it is read as standard input is.
   */
  static String notAFile(Path path) {
    if (!Files.exists(path) || Files.isRegularFile(path) || Files.isDirectory(path)) {
      return null;
    }
    if (isPipe(path)) {
      return "it is a named pipe, not opened when found in a folder (it could wait forever for a"
          + " writer): name it on its own to read it";
    }
    try {
      if (Files.getAttribute(path, "unix:mode") instanceof Integer mode
          && (mode & FILE_TYPE) == SOCKET) {
        return "it is a socket, not a recording file";
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // said as any other kind of file that is not one
    }
    return "it is a device, not a recording file";
  }

  /** A pipe, copied as standard input is. */
  private static Path pipe(Path path) throws InputProblemException {
    // a FileInputStream reads a pipe as a stream; on JDK 21 Files.newInputStream seeks it and fails
    // (so does a FileInputStream's readNBytes: StreamCopy reads it by read)
    return copy(path.toString(), "the pipe", () -> new java.io.FileInputStream(path.toFile()));
  }

  /**
   * The bytes of {@code source} in a temporary file, checked as they are copied ({@link
   * StreamCopy}).
   */
  private static Path copy(String name, String what, StreamCopy.Source source)
      throws InputProblemException {
    return StreamCopy.intoTemporaryFolder().copy(name, what, source);
  }

  private static List<RecordingInput> fromFolder(Path folder, boolean recursive)
      throws InputProblemException {
    if (!Files.isReadable(folder)) {
      throw new InputProblemException(folder + ": permission denied");
    }
    List<Path> files = recordings(folder, recursive ? Integer.MAX_VALUE : 1);
    if (files.isEmpty()) {
      int below = recursive ? 0 : recordings(folder, Integer.MAX_VALUE).size();
      throw new InputProblemException(
          folder
              + ": the folder holds no .jfr recordings"
              + (below > 0
                  ? " (its sub-folders hold "
                      + below
                      + ": add --recursive to read them, or name the sub-folder)"
                  : ""));
    }
    Map<Path, List<Path>> repositories = new TreeMap<>();
    List<RecordingInput> inputs = new ArrayList<>();
    for (Path file : files) {
      // an unreadable file of a folder is skipped with a note when the folder is analysed
      if (REPOSITORY_CHUNK.matcher(file.getFileName().toString()).matches()) {
        repositories.computeIfAbsent(file.getParent(), k -> new ArrayList<>()).add(file);
      } else {
        inputs.add(new RecordingInput(file.toString(), List.of(file), false, folder.toString()));
      }
    }
    repositories.forEach(
        (dir, chunks) ->
            inputs.add(
                new RecordingInput(dir.toString(), chunks, chunks.size() > 1, folder.toString())));
    return inputs;
  }

  private static List<Path> recordings(Path folder, int depth) throws InputProblemException {
    try (Stream<Path> walk = Files.walk(folder, depth == 1 ? 2 : depth)) {
      // A.JFR too: a name copied from a system that ignores case is still a recording's
      return walk.filter(p -> isRecordingName(p.getFileName().toString()))
          .filter(
              p ->
                  depth > 1
                      || p.getParent().equals(folder)
                      || REPOSITORY_FOLDER
                          .matcher(p.getParent().getFileName().toString())
                          .matches())
          // a link that points nowhere, a named pipe, a socket: an unreadable file, which the
          // analysis warns of (and never opens, but for the file)
          .filter(p -> !Files.isDirectory(p))
          .sorted(Comparator.comparing(Path::toString))
          .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new InputProblemException(folder + ": cannot list the folder (" + e.getMessage() + ")");
    }
  }

  /** Whether {@code name} ends in {@code .jfr}, in any case. */
  private static boolean isRecordingName(String name) {
    return name.regionMatches(true, name.length() - 4, ".jfr", 0, 4);
  }

  private static void checkReadableFile(Path file) throws InputProblemException {
    if (!Files.isRegularFile(file)) {
      throw new InputProblemException(file + ": not a regular file");
    }
    if (!Files.isReadable(file)) {
      throw new InputProblemException(file + ": permission denied");
    }
  }
}
