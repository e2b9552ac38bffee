package dev.vtscope.recording;

import java.nio.file.Path;
import java.util.List;

/**
 * One recording to analyse: a single file, or the chunk files of one JFR repository folder (one
 * JVM's recording, split in files).
 *
 * @param name how the user named it (the path as given, or the folder's path)
 * @param files the files, in recording order
 * @param repository whether the files are the chunks of one JFR repository
 * @param folder the folder the user gave, when this recording was found in it (an unreadable one is
 *     then skipped with a note rather than failing the whole folder), else null
 */
public record RecordingInput(String name, List<Path> files, boolean repository, String folder) {

  public RecordingInput {
    files = List.copyOf(files);
  }

  /** A recording the user named directly. */
  public RecordingInput(String name, List<Path> files, boolean repository) {
    this(name, files, repository, null);
  }
}
