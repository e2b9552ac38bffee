package dev.vtscope.recording;

/**
 * The 68-byte header that starts every JFR chunk. A JFR file is a sequence of self-contained
 * chunks; each header gives the chunk's size and where its constant pools and metadata start. Its
 * flag byte is not kept: the JDK's reader reads a file's chunks whatever their flags say.
 *
 * @param index position of the chunk in its file, from 0
 * @param fileOffset where the chunk starts in the file
 * @param major format major version
 * @param minor format minor version
 * @param size chunk size in bytes, header included
 * @param constantPoolOffset offset of the last constant-pool event, from the chunk start
 * @param metadataOffset offset of the metadata event, from the chunk start
 * @param startNanos chunk start, in nanoseconds since the epoch
 * @param durationNanos chunk duration in nanoseconds
 * @param fileState 0 when the chunk is complete; anything else while a JVM is still writing it
 *     (then {@code size} is where its last complete flush ends)
 */
public record ChunkHeader(
    int index,
    long fileOffset,
    int major,
    int minor,
    long size,
    long constantPoolOffset,
    long metadataOffset,
    long startNanos,
    long durationNanos,
    int fileState) {

  /** Size of the header in bytes. */
  public static final int SIZE = 68;

  /** Whether a JVM was still writing the chunk: only its bytes up to its last flush are whole. */
  public boolean inProgress() {
    return fileState != 0;
  }

  /** End of the chunk in the file, exclusive. */
  public long endOffset() {
    return fileOffset + size;
  }

  /**
   * What tells this chunk from the chunks of every other recording: a copy of it (a recording
   * concatenated with itself, copied into a folder twice, or given twice) has the same identity,
   * while a JVM starts each chunk at its own nanosecond.
   */
  public Identity identity() {
    return new Identity(startNanos, durationNanos, size, constantPoolOffset, metadataOffset);
  }

  /**
   * See {@link #identity()}. Its equality is written out: a record's generated one is linked on
   * first use, which costs a small recording's analysis more than reading its chunk.
   */
  public record Identity(
      long startNanos,
      long durationNanos,
      long size,
      long constantPoolOffset,
      long metadataOffset) {

    @Override
    public boolean equals(Object o) {
      return o instanceof Identity i
          && startNanos == i.startNanos
          && durationNanos == i.durationNanos
          && size == i.size
          && constantPoolOffset == i.constantPoolOffset
          && metadataOffset == i.metadataOffset;
    }

    @Override
    public int hashCode() {
      long h = startNanos;
      h = 31 * h + durationNanos;
      h = 31 * h + size;
      h = 31 * h + constantPoolOffset;
      h = 31 * h + metadataOffset;
      return Long.hashCode(h);
    }
  }
}
