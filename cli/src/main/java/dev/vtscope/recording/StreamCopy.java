package dev.vtscope.recording;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Copies a stream that should hold a recording (standard input, a pipe) to a temporary file, which
 * a reader needs: a recording is read by its chunks' offsets. Checked as it goes: the first bytes
 * must start a JFR chunk, or nothing more is read ({@code vtscope analyze - < /dev/zero} ends at
 * once); and the copy stops before the temporary folder's file system would have less than a tenth
 * of its size, at most 1 GB, free: a stream without end, or a recording larger than the folder can
 * hold, ends with a message rather than with a full disk for every other program. The copy ends
 * where the recording does: chunk by chunk as their headers size them, and where bytes that start
 * no chunk follow, those are copied (the reader says where reading stopped, as for a file) and
 * nothing after them is read.
 */
final class StreamCopy {

  /** The most free space a copy keeps: on a large disk a tenth of it would be too much. */
  static final long MOST_KEPT_FREE = 1L << 30;

  /** How much is copied, at most, before the free space is measured again. */
  private static final long MEASURE_EVERY = 64L << 20;

  /** Where a stream is opened. */
  interface Source {
    InputStream open() throws IOException;
  }

  private final Path folder;
  private final LongSupplier usableSpace;
  private final long keptFree;

  /**
   * @param folder where the copy goes
   * @param usableSpace the bytes its file system has free now
   * @param keptFree the bytes the copy leaves free
   */
  StreamCopy(Path folder, LongSupplier usableSpace, long keptFree) {
    this.folder = folder;
    this.usableSpace = usableSpace;
    this.keptFree = keptFree;
  }

  /** A copy into the JVM's temporary folder ({@code java.io.tmpdir}). */
  static StreamCopy intoTemporaryFolder() {
    Path folder = Path.of(System.getProperty("java.io.tmpdir"));
    FileStore store;
    try {
      store = Files.getFileStore(folder);
    } catch (IOException e) {
      // a folder that cannot be measured: creating the copy says what is wrong with it
      return new StreamCopy(folder, () -> Long.MAX_VALUE, 0);
    }
    long kept;
    try {
      kept = Math.min(MOST_KEPT_FREE, store.getTotalSpace() / 10);
    } catch (IOException e) {
      kept = 0;
    }
    return new StreamCopy(
        folder,
        () -> {
          try {
            return store.getUsableSpace();
          } catch (IOException e) {
            return Long.MAX_VALUE;
          }
        },
        kept);
  }

  /**
   * The bytes of {@code source} in a temporary file, deleted when vtscope exits.
   *
   * @param name the input as the user named it
   * @param what what it is, for messages ("standard input", "the pipe")
   * @throws InputProblemException when it is empty or not a recording (nothing is copied then),
   *     when it cannot be read, or when the copy cannot be written or would fill the folder
   */
  Path copy(String name, String what, Source source) throws InputProblemException {
    Path copy = null;
    try (InputStream in = source.open()) {
      byte[] start = readUpTo(in, ChunkHeader.SIZE);
      if (start.length == 0) {
        throw InputProblemException.notARecording(name + ": " + what + " is empty");
      }
      String problem = ChunkScanner.problemOfStart(start);
      if (problem != null) {
        throw InputProblemException.notARecording(name + ": " + problem);
      }
      copy = create(name, what);
      OutputStream out = open(copy, name, what);
      boolean copiedAll = false;
      try {
        write(out, start, start.length, name, what);
        long copied = start.length;
        long allowed = 0; // copied before the free space is measured again
        // What is left of the chunk being copied, by its header; UNKNOWN when its header gives no
        // size (a chunk still being written): then the rest of the stream is copied.
        long chunkLeft = left(chunkSize(start), start.length);
        byte[] buffer = new byte[1 << 16];
        while (true) {
          byte[] bytes = buffer;
          int n;
          if (chunkLeft == 0) {
            // the next chunk's header, or the end: bytes that start no chunk are copied (the
            // reader says where reading stopped, as for a file) and nothing after them is read
            bytes = readUpTo(in, ChunkHeader.SIZE);
            n = bytes.length;
            if (n == 0) {
              break;
            }
            chunkLeft =
                ChunkScanner.problemOfStart(bytes) == null
                    ? left(chunkSize(bytes), n)
                    : NOT_A_CHUNK;
          } else {
            n =
                in.read(
                    buffer,
                    0,
                    (int) (chunkLeft > 0 ? Math.min(buffer.length, chunkLeft) : buffer.length));
            if (n < 0) {
              break;
            }
            if (chunkLeft > 0) {
              chunkLeft -= n;
            }
          }
          if (copied + n > allowed) {
            long room = usableSpace.getAsLong() - keptFree;
            if (n > room) {
              throw tooLarge(name, what, copied);
            }
            allowed = copied + Math.min(room, MEASURE_EVERY);
          }
          write(out, bytes, n, name, what);
          copied += n;
          if (chunkLeft == NOT_A_CHUNK) {
            break;
          }
        }
        copiedAll = true;
      } finally {
        close(out, copiedAll, name, what);
      }
      Path whole = copy;
      copy = null;
      return whole;
    } catch (InputProblemException e) {
      throw e;
    } catch (IOException | UnsupportedOperationException e) {
      throw new InputProblemException(name + ": cannot read " + what + " (" + e.getMessage() + ")");
    } finally {
      if (copy != null) {
        try {
          Files.deleteIfExists(copy);
        } catch (IOException e) {
          // deleted when vtscope exits
        }
      }
    }
  }

  /** A chunk whose header gives no size: the stream is copied to its end. */
  private static final long UNKNOWN = -1;

  /** Bytes that start no chunk where one should start: copied, and the stream read no further. */
  private static final long NOT_A_CHUNK = -2;

  /**
   * The size a chunk header gives its chunk, header included, or {@link #UNKNOWN} when it gives
   * none a reader could use: 0 while the JVM still writes the chunk, or less than the header.
   */
  private static long chunkSize(byte[] header) {
    if (header.length < ChunkHeader.SIZE) {
      return UNKNOWN;
    }
    long size = ChunkScanner.declaredSize(header);
    return size < ChunkHeader.SIZE ? UNKNOWN : size;
  }

  /** What is left of a chunk of {@code size} bytes once {@code copied} of them are. */
  private static long left(long size, int copied) {
    return size == UNKNOWN ? UNKNOWN : size - copied;
  }

  /**
   * The first {@code length} bytes of {@code in}, fewer at its end. Read by {@code read}: on JDK 21
   * a FileInputStream's own readNBytes seeks, which a pipe cannot ("Illegal seek").
   */
  private static byte[] readUpTo(InputStream in, int length) throws IOException {
    byte[] bytes = new byte[length];
    int filled = 0;
    for (int n; filled < length && (n = in.read(bytes, filled, length - filled)) >= 0; ) {
      filled += n;
    }
    return filled == length ? bytes : java.util.Arrays.copyOf(bytes, filled);
  }

  private Path create(String name, String what) throws InputProblemException {
    try {
      Path copy = Files.createTempFile(folder, "vtscope-stream-", ".jfr");
      copy.toFile().deleteOnExit();
      return copy;
    } catch (IOException e) {
      throw cannotCopy(e, name, what);
    }
  }

  private OutputStream open(Path copy, String name, String what) throws InputProblemException {
    try {
      return Files.newOutputStream(copy);
    } catch (IOException e) {
      throw cannotCopy(e, name, what);
    }
  }

  /** Closes the copy; a failure counts only when all was copied, else another one is said. */
  private void close(OutputStream out, boolean copiedAll, String name, String what)
      throws InputProblemException {
    try {
      out.close();
    } catch (IOException e) {
      if (copiedAll) {
        throw cannotCopy(e, name, what);
      }
    }
  }

  /** Writes to the copy: a failure here is the folder's, not the stream's. */
  private void write(OutputStream out, byte[] bytes, int length, String name, String what)
      throws InputProblemException {
    try {
      out.write(bytes, 0, length);
    } catch (IOException e) {
      throw cannotCopy(e, name, what);
    }
  }

  private InputProblemException cannotCopy(IOException e, String name, String what) {
    String why =
        e instanceof java.nio.file.FileSystemException f && f.getReason() != null
            ? f.getReason()
            : e.getMessage();
    return new InputProblemException(
        name
            + ": cannot copy "
            + what
            + " to the temporary folder "
            + folder
            + ": "
            + why
            + " (give the recording as a file, or choose another temporary folder with"
            + " VTSCOPE_JAVA_OPTS=-Djava.io.tmpdir=FOLDER)");
  }

  private InputProblemException tooLarge(String name, String what, long copied) {
    return new InputProblemException(
        name
            + ": "
            + what
            + " does not fit in the temporary folder "
            + folder
            + ": after "
            + size(copied)
            + ", less than "
            + size(keptFree)
            + " of its file system would stay free (vtscope keeps a tenth of it free, at most"
            + " 1 GB: give the recording as a file, or choose a larger temporary folder with"
            + " VTSCOPE_JAVA_OPTS=-Djava.io.tmpdir=FOLDER)");
  }

  /** A size as people read it: 900 KB, 12 MB, 1.5 GB. */
  static String size(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(java.util.Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30));
    }
    return bytes >= 1L << 20 ? (bytes >> 20) + " MB" : (bytes + 1023 >> 10) + " KB";
  }
}
