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
 * input. A folder is searched for {@code .jfr} files (in its sub-folders too when asked); the files
 * of a JFR repository folder (named by the JVM like {@code 2026_11_22_15_04_05.jfr}) are one
 * recording, split in chunks; any other file is a recording of its own.
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
      } else if (isShellPipe(path)) {
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
   * pipe) copied once to a temporary file, deleted when vtscope exits, since a recording is read by
   * its chunks' offsets.
   */
  private static Path standardInput() throws InputProblemException {
    Path stdin = Path.of("/dev/stdin");
    if (Files.isRegularFile(stdin) && Files.isReadable(stdin)) {
      return stdin;
    }
    return copy(STDIN, "standard input", () -> System.in);
  }

  /**
   * A pipe the shell named for a process substitution ({@code <(zcat vt.jfr.gz)} is {@code
   * /dev/fd/63}): not a file, yet written by a process the user started, so reading it cannot wait
   * for a writer that never comes. Other pipes and devices are refused, never opened.
   */
  private static boolean isShellPipe(Path path) {
    String name = path.toString();
    return (name.startsWith("/dev/fd/") || name.startsWith("/proc/self/fd/"))
        && !Files.isRegularFile(path)
        && Files.isReadable(path);
  }

  /** A shell's pipe, copied once to a temporary file as standard input is. */
  private static Path pipe(Path path) throws InputProblemException {
    // a FileInputStream reads a pipe as a stream; on JDK 21 Files.newInputStream seeks it and fails
    return copy(path.toString(), "the pipe", () -> new java.io.FileInputStream(path.toFile()));
  }

  private interface Source {
    java.io.InputStream open() throws IOException;
  }

  /**
   * The bytes of {@code source} in a temporary file, deleted when vtscope exits: a recording is
   * read by its chunks' offsets, which a stream cannot give.
   */
  private static Path copy(String name, String what, Source source) throws InputProblemException {
    try {
      Path copy = Files.createTempFile("vtscope-stream-", ".jfr");
      copy.toFile().deleteOnExit();
      try (var in = source.open()) {
        Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      if (Files.size(copy) > 0) {
        return copy;
      }
    } catch (IOException | UnsupportedOperationException e) {
      throw new InputProblemException(name + ": cannot read " + what + " (" + e.getMessage() + ")");
    }
    throw InputProblemException.notARecording(name + ": " + what + " is empty");
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
      return walk.filter(p -> p.getFileName().toString().endsWith(".jfr"))
          .filter(
              p ->
                  depth > 1
                      || p.getParent().equals(folder)
                      || REPOSITORY_FOLDER
                          .matcher(p.getParent().getFileName().toString())
                          .matches())
          .filter(Files::isRegularFile)
          .sorted(Comparator.comparing(Path::toString))
          .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new InputProblemException(folder + ": cannot list the folder (" + e.getMessage() + ")");
    }
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
