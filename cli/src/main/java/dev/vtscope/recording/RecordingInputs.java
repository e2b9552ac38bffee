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
 * Turns the paths a user gave into recordings. A file is one recording. A folder is searched for
 * {@code .jfr} files; the files of a JFR repository folder (named by the JVM like {@code
 * 2026_11_22_15_04_05.jfr}) are one recording, split in chunks; any other file is a recording of
 * its own.
 */
public final class RecordingInputs {

  /** The names the JVM gives the chunk files of its disk repository. */
  private static final Pattern REPOSITORY_CHUNK =
      Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}(_\\d+)?\\.jfr");

  private RecordingInputs() {}

  /**
   * Resolves {@code paths}.
   *
   * @throws InputProblemException naming the first path that cannot be used
   */
  public static List<RecordingInput> resolve(List<Path> paths) throws InputProblemException {
    List<RecordingInput> inputs = new ArrayList<>();
    for (Path path : paths) {
      if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.exists(path)) {
        throw new InputProblemException(path + ": no such file or folder");
      }
      if (Files.isDirectory(path)) {
        inputs.addAll(fromFolder(path));
      } else {
        checkReadableFile(path);
        inputs.add(new RecordingInput(path.toString(), List.of(path), false));
      }
    }
    return inputs;
  }

  private static List<RecordingInput> fromFolder(Path folder) throws InputProblemException {
    if (!Files.isReadable(folder)) {
      throw new InputProblemException(folder + ": permission denied");
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files =
          walk.filter(p -> p.getFileName().toString().endsWith(".jfr"))
              .filter(Files::isRegularFile)
              .sorted(Comparator.comparing(Path::toString))
              .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new InputProblemException(folder + ": cannot list the folder (" + e.getMessage() + ")");
    }
    if (files.isEmpty()) {
      throw new InputProblemException(folder + ": the folder holds no .jfr recordings");
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

  private static void checkReadableFile(Path file) throws InputProblemException {
    if (!Files.isRegularFile(file)) {
      throw new InputProblemException(file + ": not a regular file");
    }
    if (!Files.isReadable(file)) {
      throw new InputProblemException(file + ": permission denied");
    }
  }
}
