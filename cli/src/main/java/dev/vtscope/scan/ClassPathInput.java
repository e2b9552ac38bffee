package dev.vtscope.scan;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The jars and folders a scan reads, from what a user gives: files and folders, class path strings
 * ({@code a.jar:b.jar}), globs the shell left alone ({@code 'lib/*'}, {@code 'lib/*.jar'}), and the
 * text {@code mvn dependency:build-classpath -Dmdep.outputFile=FILE} writes (entries separated by
 * the path separator or by lines). A glob of {@code *} alone, as a class path has it, means the
 * folder's jars.
 */
public final class ClassPathInput {

  /** A class path entry that names nothing: one line for the user. */
  public static final class MissingEntry extends Exception {
    private static final long serialVersionUID = 1L;

    MissingEntry(String message) {
      super(message);
    }
  }

  private ClassPathInput() {}

  /**
   * The jars and folders {@code entries} name, each once, in their order.
   *
   * @throws MissingEntry for an entry that is neither a file nor a folder, or a glob that matches
   *     nothing
   */
  public static List<Path> resolve(List<String> entries) throws MissingEntry {
    Set<Path> paths = new LinkedHashSet<>();
    for (String entry : entries) {
      for (String part : split(entry)) {
        paths.addAll(part(part));
      }
    }
    return List.copyOf(paths);
  }

  /** A class path's text split at path separators and line breaks, blanks dropped. */
  public static List<String> split(String text) {
    List<String> parts = new ArrayList<>();
    for (String line : text.split("\\R")) {
      for (String part : line.split(File.pathSeparator)) {
        if (!part.isBlank()) {
          parts.add(part.strip());
        }
      }
    }
    return parts;
  }

  private static List<Path> part(String part) throws MissingEntry {
    if (part.contains("*") || part.contains("?") || part.contains("[")) {
      return glob(part);
    }
    Path path;
    try {
      path = Path.of(part);
    } catch (InvalidPathException e) {
      throw new MissingEntry("not a path: " + part);
    }
    if (!Files.exists(path)) {
      throw new MissingEntry("no such file or folder: " + part);
    }
    return List.of(path);
  }

  /** The files of a folder that the last name of {@code pattern} matches, sorted. */
  private static List<Path> glob(String pattern) throws MissingEntry {
    int slash = Math.max(pattern.lastIndexOf('/'), pattern.lastIndexOf(File.separatorChar));
    String folderName = slash < 0 ? "." : pattern.substring(0, Math.max(slash, 1));
    String name = pattern.substring(slash + 1);
    if (folderName.contains("*") || folderName.contains("?") || folderName.contains("[")) {
      throw new MissingEntry("a pattern only in the file name, not in its folder: " + pattern);
    }
    Path folder = Path.of(folderName);
    if (!Files.isDirectory(folder)) {
      throw new MissingEntry("no such folder: " + folderName + " (of " + pattern + ")");
    }
    // a class path's "lib/*" is the folder's jars
    String glob = name.equals("*") ? "*.{jar,JAR,zip,ZIP}" : name;
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path f : files) {
        if (matcher.matches(f.getFileName())) {
          found.add(f);
        }
      }
    } catch (IOException e) {
      throw new MissingEntry("cannot list " + folderName + ": " + e.getMessage());
    }
    if (found.isEmpty()) {
      throw new MissingEntry("nothing matches " + pattern);
    }
    found.sort(null);
    return found;
  }
}
