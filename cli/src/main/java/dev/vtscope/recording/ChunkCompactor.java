package dev.vtscope.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.Set;

/**
 * Streams one chunk from its file through a small window and keeps only the records a {@link
 * ChunkDecoder} needs: the metadata and the events of the wanted types, laid out as a chunk of
 * their own (the header, with the metadata offset moved, then the kept records in their order), and
 * where the checkpoints are. The checkpoints stay in the file, where the decoder reads them a page
 * at a time: their constant pools are a large share of a chunk whose events have many distinct
 * stacks, and what is kept is then usually a few percent of the chunk, so memory does not grow with
 * the chunk's size. Records are walked by their sizes, as a decoder would walk them, and every size
 * is checked before it is trusted.
 */
final class ChunkCompactor {

  private static final long METADATA = 0;
  private static final long CHECKPOINT = 1;

  /**
   * Rounds of the walk between two looks at the clock: a round is the quick loop over what the
   * window holds, then one record by the general step.
   */
  private static final int DEADLINE_CHECK_EVERY = 1 << 6;

  /** The most bytes a record's size and type take. */
  private static final int RECORD_HEAD = 18;

  /**
   * The kept records as a chunk, or why the chunk cannot be read.
   *
   * @param bytes the compact chunk, from position 0 to its limit; null on failure
   * @param constants where the checkpoints are in the original chunk, in their order
   * @param unknownTypes records of event types the metadata does not declare (dropped)
   * @param failure why reading stopped, or null
   * @param failureOffset where in the original chunk, or -1
   */
  record Compacted(
      ByteBuffer bytes,
      JfrMetadata metadata,
      Checkpoints constants,
      int[] compactStarts,
      long[] originalStarts,
      int records,
      long unknownTypes,
      String failure,
      long failureOffset) {

    /** Where the byte at {@code offset} of the compact chunk was in the original one. */
    long originalOffset(long offset) {
      if (offset < ChunkHeader.SIZE || records == 0) {
        return offset;
      }
      int i = Arrays.binarySearch(compactStarts, 0, records, (int) offset);
      int record = i >= 0 ? i : Math.max(0, -i - 2);
      return originalStarts[record] + (offset - compactStarts[record]);
    }
  }

  private final FileChannel channel;
  private final ChunkHeader chunk;
  private final long readable;
  private final ByteBuffer window;
  private final long deadlineNanos;
  private final MetadataCache metadataCache;

  private JfrMetadata metadata;

  /**
   * The checkpoint records of a chunk, in the file: {@code count} records, the i-th of {@code
   * sizes[i]} bytes at {@code starts[i]} from the chunk's start, of a chunk of {@code readable}
   * bytes at {@code chunkFileOffset} in {@code channel}.
   */
  record Checkpoints(
      FileChannel channel,
      long chunkFileOffset,
      int readable,
      int[] starts,
      int[] sizes,
      int count) {}

  private int[] checkpointStarts = new int[16];
  private int[] checkpointSizes = new int[16];
  private int checkpoints;

  /** The window holds the chunk's bytes from this offset on. */
  private long windowStart;

  private byte[] kept = new byte[1 << 16];
  private int keptSize;
  private int[] compactStarts = new int[256];
  private long[] originalStarts = new long[256];
  private int records;

  /**
   * @param window a reusable buffer (a megabyte is plenty): the chunk passes through it
   * @param readable how many bytes of the chunk hold whole records
   */
  ChunkCompactor(
      FileChannel channel,
      ChunkHeader chunk,
      long readable,
      ByteBuffer window,
      long deadlineNanos,
      MetadataCache metadataCache) {
    this.metadataCache = metadataCache;
    this.channel = channel;
    this.chunk = chunk;
    this.readable = readable;
    this.window = window;
    window.clear().limit(0); // holds nothing of this chunk yet
    this.deadlineNanos = deadlineNanos;
  }

  Compacted compact(Set<String> wantedEvents) throws IOException {
    try {
      return walk(wantedEvents);
    } catch (JfrFormatException e) {
      return failed(e.getMessage(), e.offset());
    } catch (DeadlineException e) {
      return failed("took too long to read (over the reader's time limit)", -1);
    }
  }

  private Compacted walk(Set<String> wantedEvents) throws IOException {
    // The header, then the metadata: it says which type ids are wanted.
    keep(0, ChunkHeader.SIZE, false);
    long metadataOffset = chunk.metadataOffset();
    if (metadataOffset < ChunkHeader.SIZE || metadataOffset >= readable) {
      return failed("the chunk header puts the metadata outside the chunk", 24);
    }
    fill(metadataOffset);
    long metadataSize = recordSize(metadataOffset);
    int metadataAt = keptSize;
    keep(metadataOffset, metadataSize, true);
    try {
      ChunkBytes in = new ChunkBytes(ByteBuffer.wrap(kept, 0, keptSize).slice(0, keptSize));
      in.position(metadataAt);
      in.limit((int) (metadataAt + metadataSize));
      // The record's size, type, start time, duration and id differ from chunk to chunk; what
      // follows (the strings and the type tree) is what the cache compares.
      for (int i = 0; i < 5; i++) {
        in.varLong();
      }
      int bodyAt = in.position();
      metadata =
          metadataCache.get(
              kept,
              bodyAt,
              (int) (metadataAt + metadataSize),
              () -> {
                in.position(metadataAt);
                return JfrMetadata.read(in);
              });
    } catch (JfrFormatException e) {
      throw new JfrFormatException(e.getMessage(), metadataOffset + (e.offset() - metadataAt));
    }
    byte[] kinds = kinds(metadata, wantedEvents);
    ByteBuffer.wrap(kept).putLong(24, metadataAt); // the metadata's place in the compact chunk

    // This loop sees every record of the file (tens of millions per gigabyte), and runs as the
    // JIT's quick compiler leaves it, which keeps fields and longs in memory and inlines only tiny
    // methods. So the common case is an inner loop over the window with ints in locals: a size of
    // one byte, a type id of one or two (ids above 127), and one table of what to do by type id.
    // A record it leaves (a longer size or id, a head that may cross the window's end) is read by
    // the general step after it.
    long position = ChunkHeader.SIZE;
    long rounds = 0;
    long unknown = 0;
    byte[] w = window.array();
    while (position < readable) {
      if ((++rounds & (DEADLINE_CHECK_EVERY - 1)) == 0 && System.nanoTime() > deadlineNanos) {
        throw new DeadlineException();
      }
      fill(position);
      int at = (int) (position - windowStart);
      int lastWholeHead = window.limit() - RECORD_HEAD;
      // where the chunk's readable bytes end, from the window's start (a record must end by it)
      int end = (int) Math.min(readable - windowStart, Integer.MAX_VALUE);
      while (at <= lastWholeHead) {
        int size = w[at];
        int b1 = w[at + 1];
        int typeId;
        if (size > 0 && b1 >= 0) {
          typeId = b1;
        } else if (size > 0 && w[at + 2] >= 0) {
          typeId = (b1 & 0x7f) | (w[at + 2] << 7);
        } else {
          break;
        }
        if (size > end - at) {
          throw new JfrFormatException("a record of impossible size " + size, windowStart + at);
        }
        if (typeId >= kinds.length) {
          unknown += metadata.type(typeId) == null ? 1 : 0;
        } else if (kinds[typeId] != SKIP) {
          unknown += take(kinds[typeId], windowStart + at, size);
        }
        at += size;
      }
      position = windowStart + at;
      if (position >= readable) {
        break;
      }
      fill(position);
      at = (int) (position - windowStart);
      long size = integer(at, 4);
      long typeId = integer(next, 8);
      if (size <= 0 || size > readable - position) {
        throw new JfrFormatException("a record of impossible size " + size, position);
      }
      if (typeId >= 0 && typeId < kinds.length) {
        unknown += take(kinds[(int) typeId], position, size);
      } else if (metadata.type(typeId) == null) {
        unknown++;
      }
      position += size;
    }
    return new Compacted(
        ByteBuffer.wrap(kept, 0, keptSize).slice(0, keptSize),
        metadata,
        new Checkpoints(
            channel,
            chunk.fileOffset(),
            (int) Math.min(readable, Integer.MAX_VALUE),
            checkpointStarts,
            checkpointSizes,
            checkpoints),
        compactStarts,
        originalStarts,
        records,
        unknown,
        null,
        -1);
  }

  /** Where the last integer read from the window ended. */
  private int next;

  /**
   * The compressed integer at {@code at} in the window (see {@link ChunkBytes#varLong}), an int
   * when {@code width} is 4 and else a long. Sets {@link #next}. A value cut by the end of the
   * readable bytes is damage. This loop sees every record of the file; reading from the window's
   * array directly, rather than through a {@link ChunkBytes}, made the whole read of the 1 GB
   * benchmark recording about 15% faster.
   */
  private long integer(int at, int width) {
    byte[] w = window.array();
    int end = window.limit();
    long value = 0;
    int p = at;
    for (int i = 0; i < 8; i++) {
      if (p >= end) {
        throw new JfrFormatException("a record runs past the end of the chunk", windowStart + at);
      }
      int b = w[p++];
      value |= (long) (b & 0x7f) << (7 * i);
      if (b >= 0) {
        next = p;
        return width == 4 ? (int) value : value;
      }
    }
    if (p >= end) {
      throw new JfrFormatException("a record runs past the end of the chunk", windowStart + at);
    }
    value |= (long) (w[p++] & 0xff) << 56;
    next = p;
    return width == 4 ? (int) value : value;
  }

  /** What the walk does with a record of a type: skip it, keep it, note a checkpoint, count it. */
  private static final byte SKIP = 0;

  private static final byte KEEP = 1;
  private static final byte CHECKPOINT_RECORD = 2;
  private static final byte UNDECLARED = 3;

  /**
   * By type id, what the walk does with its records: those of {@code wantedEvents} are kept,
   * checkpoints noted, those of a type the metadata does not declare counted, the rest skipped. Ids
   * beyond the largest declared one are not in the table.
   */
  private static byte[] kinds(JfrMetadata metadata, Set<String> wantedEvents) {
    long max = Math.max(CHECKPOINT, METADATA);
    for (JfrMetadata.Type t : metadata.types()) {
      max = Math.max(max, t.id);
    }
    byte[] kinds = new byte[(int) Math.min(max + 1, 1 << 20)];
    Arrays.fill(kinds, UNDECLARED);
    kinds[(int) METADATA] = SKIP;
    for (JfrMetadata.Type t : metadata.types()) {
      if (t.id >= 0 && t.id < kinds.length) {
        kinds[(int) t.id] = SKIP;
      }
    }
    kinds[(int) CHECKPOINT] = CHECKPOINT_RECORD;
    for (String name : wantedEvents) {
      JfrMetadata.Type t = metadata.type(name);
      if (t != null && t.id >= 0 && t.id < kinds.length) {
        kinds[(int) t.id] = KEEP;
      }
    }
    return kinds;
  }

  /**
   * Does with the record of {@code size} bytes at {@code offset} what its {@code kind} says;
   * returns 1 when it is of an undeclared type, else 0.
   */
  private int take(byte kind, long offset, long size) throws IOException {
    switch (kind) {
      case KEEP -> keep(offset, size, true);
      case CHECKPOINT_RECORD -> checkpoint(offset, size);
      case UNDECLARED -> {
        return 1;
      }
      default -> {}
    }
    return 0;
  }

  /** The size of the record at {@code offset} (in the window), checked to fit the chunk. */
  private long recordSize(long offset) {
    long size = integer((int) (offset - windowStart), 4);
    if (size <= 0 || size > readable - offset) {
      throw new JfrFormatException("a record of impossible size " + size, offset);
    }
    return size;
  }

  /** Makes the window hold the chunk from {@code offset}, at least a record's head of it. */
  private void fill(long offset) throws IOException {
    long end = Math.min(readable, offset + RECORD_HEAD);
    if (offset >= windowStart && end <= windowStart + window.limit()) {
      return;
    }
    window.clear();
    long want = Math.min(window.capacity(), readable - offset);
    window.limit((int) want);
    while (window.hasRemaining()) {
      int n = channel.read(window, chunk.fileOffset() + offset + window.position());
      if (n < 0) {
        throw new JfrFormatException("ends early: the file shrank while it was read", offset);
      }
    }
    window.flip();
    windowStart = offset;
  }

  /** Notes where a checkpoint record is, for the decoder to read from the file. */
  private void checkpoint(long offset, long size) {
    if (offset + size > Integer.MAX_VALUE) {
      throw new JfrFormatException(
          "has constants past its first 2 GiB, which this reader does not address (try --reader"
              + " jdk)",
          offset);
    }
    if (checkpoints == checkpointStarts.length) {
      checkpointStarts = Arrays.copyOf(checkpointStarts, checkpoints * 2);
      checkpointSizes = Arrays.copyOf(checkpointSizes, checkpoints * 2);
    }
    checkpointStarts[checkpoints] = (int) offset;
    checkpointSizes[checkpoints] = (int) size;
    checkpoints++;
  }

  /** Copies the chunk's bytes {@code [offset, offset + size)} to the kept ones. */
  private void keep(long offset, long size, boolean record) throws IOException {
    if (keptSize + size > Integer.MAX_VALUE - 16) {
      throw new JfrFormatException("holds more than 2 GB of the events vtscope reads", offset);
    }
    if (keptSize + size > kept.length) {
      kept =
          Arrays.copyOf(
              kept,
              (int) Math.max(keptSize + size, Math.min(Integer.MAX_VALUE - 16, kept.length * 2L)));
    }
    if (record) {
      if (records == compactStarts.length) {
        compactStarts = Arrays.copyOf(compactStarts, records * 2);
        originalStarts = Arrays.copyOf(originalStarts, records * 2);
      }
      compactStarts[records] = keptSize;
      originalStarts[records] = offset;
      records++;
    }
    long windowEnd = windowStart + window.limit();
    if (offset >= windowStart && offset + size <= windowEnd) {
      window.get((int) (offset - windowStart), kept, keptSize, (int) size);
    } else {
      ByteBuffer target = ByteBuffer.wrap(kept, keptSize, (int) size);
      while (target.hasRemaining()) {
        int n = channel.read(target, chunk.fileOffset() + offset + (target.position() - keptSize));
        if (n < 0) {
          throw new JfrFormatException("ends early: the file shrank while it was read", offset);
        }
      }
    }
    keptSize += (int) size;
  }

  private Compacted failed(String why, long offset) {
    return new Compacted(null, null, null, compactStarts, originalStarts, records, 0, why, offset);
  }
}
