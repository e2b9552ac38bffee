package dev.vtscope.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the chunk headers of a JFR file before a reader parses it. The JDK's reader can spin
 * forever on a chunk size of 0 and throws unchecked errors on damaged headers; checking the headers
 * first turns such files into a clear message, and lets vtscope read the valid chunks that precede
 * a damaged one. A chunk a JVM is still writing (its header's file state is not 0, as in a running
 * JVM's repository or a copy of one) is taken up to its last complete flush, which its header
 * records; the bytes after that are not whole yet and end the scan.
 */
public final class ChunkScanner {

  private static final int MAGIC = 0x464C5200; // "FLR\0"

  /** Where a chunk header keeps its chunk's size. */
  private static final int SIZE_FIELD = 8;

  /** Where a chunk header holds its file state: 0 finished, a flush's count, or UPDATING. */
  private static final int FILE_STATE = 64;

  /** The file state while a JVM rewrites the header. */
  private static final byte UPDATING = (byte) 255;

  /** How many times a header being rewritten is read again, a millisecond apart, at most. */
  private static final int HEADER_ATTEMPTS = 2_000;

  private static final int SUPPORTED_MAJOR = 2;

  private ChunkScanner() {}

  /**
   * Scans {@code file}.
   *
   * @throws NotARecordingException when the file does not start with a valid chunk header
   * @throws IOException when the file cannot be read
   */
  public static ChunkScan scan(Path file) throws IOException {
    return scan(file, true);
  }

  /**
   * Scans {@code file}; with {@code walkRecords} false the records inside each chunk are left to
   * the reader to check (vtscope's own reader walks them anyway).
   *
   * @throws NotARecordingException when the file does not start with a valid chunk header
   * @throws IOException when the file cannot be read
   */
  public static ChunkScan scan(Path file, boolean walkRecords) throws IOException {
    String notAFile = RecordingInputs.notAFile(file);
    if (notAFile != null) {
      throw new IOException(notAFile);
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long fileSize = channel.size();
      if (fileSize == 0) {
        throw new NotARecordingException(
            "the file is empty (a JVM stopped before it wrote its recording leaves the data in its"
                + " JFR repository, a folder like 2026_11_22_10_00_00_4242 in its temp folder or"
                + " where -XX:FlightRecorderOptions:repository says: analyse that folder)");
      }
      List<ChunkHeader> chunks = new ArrayList<>();
      ByteBuffer buffer = ByteBuffer.allocate(ChunkHeader.SIZE).order(ByteOrder.BIG_ENDIAN);
      long offset = 0;
      while (offset < fileSize) {
        String problem =
            readHeader(channel, offset, fileSize, chunks.size(), buffer, chunks, walkRecords);
        if (problem != null) {
          if (chunks.isEmpty()) {
            throw new NotARecordingException(problem);
          }
          return new ChunkScan(chunks, fileSize, problem, offset, 0);
        }
        ChunkHeader last = chunks.get(chunks.size() - 1);
        offset = last.endOffset();
        if (last.inProgress()) {
          return new ChunkScan(chunks, fileSize, null, -1, fileSize - offset);
        }
      }
      return new ChunkScan(chunks, fileSize, null, -1, 0);
    }
  }

  /** Reads the header at {@code offset}; adds it to {@code chunks} or returns what is wrong. */
  private static String readHeader(
      FileChannel channel,
      long offset,
      long fileSize,
      int index,
      ByteBuffer buffer,
      List<ChunkHeader> chunks,
      boolean walk)
      throws IOException {
    if (fileSize - offset < ChunkHeader.SIZE) {
      return index == 0 && !startsWithMagic(channel, fileSize)
          ? "not a JFR recording (no JFR file header)"
          : "the file ends inside a chunk header (truncated)";
    }
    // A JVM writing the chunk rewrites its header at every flush, with the file state byte set to
    // UPDATING meanwhile: the header is read when that byte says neither that it is being written
    // nor, read again after the fields, that it changed, as the JDK's reader reads it; a header
    // whose fields were read half before and half after a flush points at data that is not there.
    for (int attempt = 0; ; attempt++) {
      if (!readFully(channel, offset, buffer)) {
        return "the file ends inside a chunk header (truncated)";
      }
      byte state = buffer.get(FILE_STATE);
      if (attempt >= HEADER_ATTEMPTS
          || state != UPDATING && state == stateNow(channel, offset, buffer.get(FILE_STATE))) {
        break;
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (buffer.getInt(0) != MAGIC) {
      return index == 0
          ? problemOfStart(buffer.array())
          : "no chunk header where chunk " + (index + 1) + " should start (corrupt)";
    }
    int major = Short.toUnsignedInt(buffer.getShort(4));
    int minor = Short.toUnsignedInt(buffer.getShort(6));
    if (major != SUPPORTED_MAJOR) {
      return "JFR format version "
          + major
          + "."
          + minor
          + " is not supported (JDK 11 or later writes 2.x)";
    }
    long size = buffer.getLong(SIZE_FIELD);
    long constantPoolOffset = buffer.getLong(16);
    long metadataOffset = buffer.getLong(24);
    long startNanos = buffer.getLong(32);
    long durationNanos = buffer.getLong(40);
    int fileState = Byte.toUnsignedInt(buffer.get(FILE_STATE));
    if (fileState != 0 && (size <= ChunkHeader.SIZE || metadataOffset == 0)) {
      return "chunk "
          + (index + 1)
          + " was still being written and has no complete flush yet (nothing of it is readable)";
    }
    if (size == 0) {
      return "chunk " + (index + 1) + " declares a size of 0 bytes (corrupt)";
    }
    if (size < ChunkHeader.SIZE) {
      return "chunk "
          + (index + 1)
          + " declares an impossible size of "
          + size
          + " bytes (corrupt)";
    }
    if (size > fileSize - offset) {
      return "chunk "
          + (index + 1)
          + " declares "
          + size
          + " bytes but only "
          + (fileSize - offset)
          + " remain (truncated)";
    }
    if (metadataOffset < ChunkHeader.SIZE
        || metadataOffset >= size
        || constantPoolOffset < ChunkHeader.SIZE
        || constantPoolOffset >= size) {
      return "chunk " + (index + 1) + " has metadata or constant pools outside itself (corrupt)";
    }
    // The flag byte (67) is not read: the JDK's reader reads any flags, and every chunk's integers
    // compressed whatever its flags say.
    String damaged = walk ? walkRecords(channel, offset, size) : null;
    if (damaged != null) {
      return "chunk " + (index + 1) + " " + damaged;
    }
    chunks.add(
        new ChunkHeader(
            index,
            offset,
            major,
            minor,
            size,
            constantPoolOffset,
            metadataOffset,
            startNanos,
            durationNanos,
            fileState));
    return null;
  }

  /** Reads a whole header at {@code offset} into {@code buffer}; false at the file's end. */
  private static boolean readFully(FileChannel channel, long offset, ByteBuffer buffer)
      throws IOException {
    buffer.clear();
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, offset + buffer.position()) < 0) {
        return false;
      }
    }
    buffer.flip();
    return true;
  }

  /** The file state byte of the header at {@code offset} as it is now; {@code otherwise} unread. */
  private static byte stateNow(FileChannel channel, long offset, byte otherwise)
      throws IOException {
    ByteBuffer one = ByteBuffer.allocate(1);
    return channel.read(one, offset + FILE_STATE) == 1 ? one.get(0) : otherwise;
  }

  /**
   * Walks the chunk's records by their sizes, without parsing them: every record must have a
   * positive size and end inside the chunk. The JDK's reader stops quietly at a record of size 0,
   * which would make a damaged chunk look like one without events.
   */
  private static String walkRecords(FileChannel channel, long chunkOffset, long size)
      throws IOException {
    if (size > Integer.MAX_VALUE) {
      return null; // larger than one mapping: left to the JDK's reader
    }
    MappedByteBuffer chunk = channel.map(FileChannel.MapMode.READ_ONLY, chunkOffset, size);
    int position = ChunkHeader.SIZE;
    while (position < size) {
      long recordSize = readCompressedInt(chunk, position);
      if (recordSize <= 0 || position + recordSize > size) {
        return "has a damaged record at byte " + (chunkOffset + position) + " (corrupt)";
      }
      position += (int) recordSize;
    }
    return null;
  }

  /** JFR's compressed integer: 7 bits a byte, low bits first, the high bit says more follow. */
  private static long readCompressedInt(MappedByteBuffer buffer, int position) {
    long value = 0;
    for (int i = 0; i < 9 && position + i < buffer.limit(); i++) {
      int b = buffer.get(position + i) & 0xff;
      if (i == 8) {
        return value | ((long) b << 56);
      }
      value |= (long) (b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    return -1;
  }

  /**
   * The size a chunk header's bytes give their chunk, header included: 0 while the JVM still writes
   * the chunk. {@code header} holds at least {@link ChunkHeader#SIZE} bytes.
   */
  public static long declaredSize(byte[] header) {
    return ByteBuffer.wrap(header).getLong(SIZE_FIELD);
  }

  /**
   * What the first bytes of a file or stream say against it being a recording, or null when they
   * start a JFR chunk: enough to refuse a stream before copying the rest of it.
   */
  public static String problemOfStart(byte[] start) {
    if (start.length >= 4 && ByteBuffer.wrap(start).getInt(0) == MAGIC) {
      return null;
    }
    return start.length > 0 && start[0] == '{'
        ? "not a JFR recording but JSON: reports of vtscope analyze add up with vtscope merge"
        : "not a JFR recording (no JFR file header)";
  }

  private static boolean startsWithMagic(FileChannel channel, long fileSize) throws IOException {
    if (fileSize < 4) {
      return false;
    }
    ByteBuffer magic = ByteBuffer.allocate(4);
    channel.read(magic, 0);
    return magic.flip().remaining() == 4 && magic.getInt(0) == MAGIC;
  }
}
