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
 */
public record RecordingInput(String name, List<Path> files, boolean repository) {

  public RecordingInput {
    files = List.copyOf(files);
  }
}
