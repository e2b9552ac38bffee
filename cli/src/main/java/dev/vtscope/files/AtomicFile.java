package dev.vtscope.files;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one way vtscope writes a file: whole or not at all. It is written to a hidden temporary file
 * beside it, forced to the disk, then moved over it, so that a full disk or an interrupted run
 * leaves the old file as it was and no half-written one, and whoever reads the folder meanwhile
 * ({@code analyze DIR} of a {@code dump --save} folder) sees no file in part. What is not a regular
 * file ({@code /dev/stdout}, {@code /dev/full}, a named pipe, a file of {@code /proc}) cannot be
 * replaced: it is written in place, every error checked.
 */
public final class AtomicFile {

  /** What fills a file, written to a stream. */
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** What fills a file, written by a library (or a JVM) that takes only a path to write to. */
  public interface FileContent {
    void writeTo(Path file) throws IOException;
  }

  /** A file that could not be written: its message says which and why, in one line. */
  public static final class WriteFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    WriteFailedException(Path target, Path file, IOException cause) {
      super(cannotWrite(target, file, cause), cause);
    }
  }

  private AtomicFile() {}

  /** Writes {@code content} to {@code target}. */
  public static void write(Path target, Content content) throws WriteFailedException {
    replace(
        target,
        temporary -> {
          try (OutputStream out =
              new BufferedOutputStream(
                  Files.newOutputStream(temporary, StandardOpenOption.WRITE), 1 << 16)) {
            content.writeTo(out);
          }
        },
        content);
  }

  /**
   * Writes {@code target} by {@code content}, which writes a whole file at the path it is given.
   * What is not a regular file gets the bytes of such a file made in the temporary folder.
   */
  public static void writeFile(Path target, FileContent content) throws WriteFailedException {
    replace(
        target,
        content,
        out -> {
          Path scratch = Files.createTempFile("vtscope-", ".tmp");
          try {
            content.writeTo(scratch);
            Files.copy(scratch, out);
          } finally {
            Files.deleteIfExists(scratch);
          }
        });
  }

  /**
   * Replaces {@code target} by what {@code fill} writes into a temporary file beside it, or, when
   * it cannot be replaced, writes into it what {@code straight} writes.
   */
  private static void replace(Path target, FileContent fill, Content straight)
      throws WriteFailedException {
    Path file = target;
    try {
      file = followLink(target);
      if (!replaceable(file)) {
        writeStraight(file, straight, StandardOpenOption.APPEND);
        return;
      }
      Path temporary;
      try {
        temporary = temporaryBeside(file);
      } catch (AccessDeniedException e) {
        // a file one may write in a folder one may not: overwritten, as a shell's > would
        if (!Files.isRegularFile(file) || !Files.isWritable(file)) {
          throw e;
        }
        writeStraight(file, straight, StandardOpenOption.TRUNCATE_EXISTING);
        return;
      }
      try {
        fill.writeTo(temporary);
        // on the disk before it replaces anything: a crash then leaves the old file or the new
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
          channel.force(true);
        }
        moveOver(temporary, file);
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException e) {
      throw new WriteFailedException(target, file, e);
    }
  }

  /**
   * Where a symbolic link points, so that the file it names is replaced and the link kept; a link
   * that points nowhere yet names the file to create. The links of {@code /dev} and {@code /proc}
   * are not followed: {@code /dev/stdout} leads to whatever standard output is, which may be a file
   * the shell opened to append to, or a pipe.
   */
  private static Path followLink(Path target) throws IOException {
    Path absolute = target.toAbsolutePath().normalize();
    if (!Files.isSymbolicLink(absolute) || absolute.startsWith("/dev") || isKernels(absolute)) {
      return target;
    }
    if (Files.exists(absolute)) {
      return absolute.toRealPath();
    }
    Path parent = absolute.getParent();
    return parent == null ? absolute : parent.resolve(Files.readSymbolicLink(absolute)).normalize();
  }

  /**
   * Whether {@code target} is written in place rather than replaced: a device, a pipe, a link of
   * {@code /dev} ({@code /dev/stdout}, also when the shell sent standard output to a file) or a
   * file of the kernel's. What is there is then no file vtscope could overwrite by mistake.
   */
  public static boolean writtenInPlace(Path target) {
    Path absolute = target.toAbsolutePath().normalize();
    if (isKernels(absolute) || (absolute.startsWith("/dev") && Files.isSymbolicLink(absolute))) {
      return true;
    }
    return Files.exists(absolute) && !Files.isRegularFile(absolute) && !Files.isDirectory(absolute);
  }

  /** Whether {@code absolute} is a file the kernel makes up, which says it is a regular file. */
  private static boolean isKernels(Path absolute) {
    return absolute.startsWith("/proc") || absolute.startsWith("/sys");
  }

  /**
   * Whether {@code file} can be replaced by moving another over it: a regular file, or none yet
   * ({@code /dev/shm/report.txt} too); never a device, a pipe, a link of {@code /dev} such as
   * {@code /dev/stdout} or a file of the kernel's.
   */
  private static boolean replaceable(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new FileSystemException(file.toString(), null, "it is a folder");
    }
    Path absolute = file.toAbsolutePath().normalize();
    return !Files.isSymbolicLink(absolute)
        && !isKernels(absolute)
        && (Files.isRegularFile(absolute) || !Files.exists(absolute));
  }

  /**
   * A new, empty, hidden file in {@code file}'s folder (a move within one file system is atomic; a
   * glob such as {@code *.json} does not see it), with the permissions {@code file} has when it
   * exists and otherwise those a new file gets.
   */
  private static Path temporaryBeside(Path file) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path folder = absolute.getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw new NoSuchFileException(absolute.toString());
    }
    // a name is at most 255 bytes: the hidden name must fit beside one that is near that already
    String prefix = "." + leading(absolute.getFileName().toString(), NAME_BYTES - 19) + ".";
    for (int attempt = 0; ; attempt++) {
      Path temporary =
          folder.resolve(
              prefix + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
      try {
        Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW).close();
        // Ctrl-C or kill while it is written: gone when the JVM ends, the old file untouched
        temporary.toFile().deleteOnExit();
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (attempt < 10) {
          continue;
        }
        throw e;
      }
      if (Files.isRegularFile(absolute)) {
        try {
          Files.setPosixFilePermissions(temporary, Files.getPosixFilePermissions(absolute));
        } catch (UnsupportedOperationException | IOException e) {
          // the permissions a new file gets: the content is what was asked for
        }
      }
      return temporary;
    }
  }

  /** The longest file name most file systems take, in bytes. */
  private static final int NAME_BYTES = 255;

  /**
   * The start of {@code name} that takes at most {@code bytes} bytes in UTF-8, never half a
   * character: enough to tell whose temporary file it is; the random part makes it unique.
   */
  static String leading(String name, int bytes) {
    int used = 0;
    int end = 0;
    while (end < name.length()) {
      int c = name.codePointAt(end);
      int size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (used + size > bytes) {
        break;
      }
      used += size;
      end += Character.charCount(c);
    }
    return name.substring(0, end);
  }

  private static void moveOver(Path temporary, Path file) throws IOException {
    try {
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * Writes {@code file} straight; every error is one. What cannot be replaced is appended to, so
   * that {@code -o /dev/stdout >> log} appends as the shell was told to (what is not a regular file
   * has no end to append to).
   */
  private static void writeStraight(Path file, Content content, StandardOpenOption mode)
      throws IOException {
    try (OutputStream out =
        new BufferedOutputStream(
            Files.newOutputStream(file, StandardOpenOption.WRITE, mode), 1 << 16)) {
      content.writeTo(out);
    }
  }

  /**
   * Why {@code target} could not be written, when the file written for it was {@code file} (where a
   * link points).
   */
  private static String cannotWrite(Path target, Path file, IOException e) {
    String why;
    if (e instanceof NoSuchFileException) {
      Path folder = file.toAbsolutePath().getParent();
      why =
          folder != null && !Files.isDirectory(folder)
              ? "the folder " + folder + " does not exist"
              : "no such file or folder";
    } else if (e instanceof AccessDeniedException) {
      why = "permission denied";
    } else if (e instanceof FileSystemException f && f.getReason() != null) {
      why = f.getReason();
    } else {
      why = e.getMessage();
    }
    return "cannot write " + target + ": " + why;
  }
}
