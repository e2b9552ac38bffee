package dev.vtscope.recording;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over one chunk's bytes. Integers are JFR's compressed integers (seven bits a byte, low
 * bits first, a ninth byte taken whole), whatever the chunk header's flags say: the JDK's reader
 * reads them so, and vtscope reads what it reads. Every read checks the limit it was given, so
 * damaged sizes and counts end in a {@link JfrFormatException} rather than a read outside the
 * record.
 *
 * <p>The bytes are either all in a buffer, or read from the file a page at a time: a chunk's
 * constant pools, which can be most of a chunk, are then never held whole. Positions are offsets
 * from the chunk's start either way.
 */
final class ChunkBytes {

  private final ByteBuffer buffer;

  /**
   * The buffer's array, and the index in it of the chunk's byte at offset 0: reads index the array
   * directly, where the buffer's get calls a bounds check that the quick compiler (the launcher's)
   * leaves in every read.
   */
  private final byte[] array;

  private int base;

  private int position;
  private int limit;

  /** Where the chunk's readable bytes end. */
  private final int end;

  /** The chunk's byte at this offset is the buffer's first: 0 when it holds the whole chunk. */
  private int bufferStart;

  /** The buffer holds the chunk's bytes up to this offset. */
  private int bufferEnd;

  /** The file the pages come from; null when the buffer holds the whole chunk. */
  private final FileChannel channel;

  private final long chunkFileOffset;

  /** How many bytes a page read takes at most. */
  private int pageBytes;

  /**
   * A cursor over the chunk's bytes in {@code buffer}, from its start to its limit; a heap buffer,
   * as every buffer here is (its array is read directly).
   */
  ChunkBytes(ByteBuffer buffer) {
    this.buffer = buffer;
    this.array = buffer.array();
    this.base = buffer.arrayOffset();
    this.end = buffer.limit();
    this.limit = end;
    this.bufferEnd = end;
    this.channel = null;
    this.chunkFileOffset = 0;
  }

  /**
   * A cursor over the first {@code readable} bytes of the chunk that starts at {@code
   * chunkFileOffset} in {@code channel}, read into {@code page} (a heap buffer) as they are needed.
   */
  ChunkBytes(FileChannel channel, long chunkFileOffset, int readable, ByteBuffer page) {
    this.buffer = page;
    this.array = page.array();
    this.base = page.arrayOffset();
    page.clear().limit(0);
    this.end = readable;
    this.limit = readable;
    this.channel = channel;
    this.chunkFileOffset = chunkFileOffset;
    this.pageBytes = page.capacity();
  }

  /**
   * How many bytes each page read takes: the whole page for a pass through the chunk, less for
   * reads here and there.
   */
  void pageBytes(int bytes) {
    pageBytes = Math.max(16, Math.min(bytes, buffer.capacity()));
  }

  /** Makes the buffer hold the {@code bytes} from the position on (which the limit allows). */
  private void page(int bytes) {
    int want = Math.max(bytes, Math.min(pageBytes, end - position));
    bufferStart = position;
    base = buffer.arrayOffset() - bufferStart;
    bufferEnd = position; // holds nothing until the read succeeds
    buffer.clear().limit(want);
    readFully(buffer);
    buffer.flip();
    bufferEnd = position + want;
  }

  int position() {
    return position;
  }

  void position(int position) {
    if (position < 0 || position > end) {
      throw new JfrFormatException("a position outside the chunk", position);
    }
    this.position = position;
  }

  int limit() {
    return limit;
  }

  /** Restricts reads to end before {@code limit} (a record's end); returns the previous limit. */
  int limit(int limit) {
    int previous = this.limit;
    this.limit = Math.min(limit, end);
    return previous;
  }

  int remaining() {
    return limit - position;
  }

  private void need(int bytes) {
    if (bytes > limit - position) {
      throw new JfrFormatException("a value runs past the end of its record", position);
    }
    if (position + bytes > bufferEnd || position < bufferStart) {
      page(bytes); // never with the whole chunk in the buffer: then bufferEnd is its end
    }
  }

  int u1() {
    need(1);
    return array[base + position++] & 0xff;
  }

  long rawLong() {
    need(8);
    long v = buffer.getLong(position - bufferStart);
    position += 8;
    return v;
  }

  int rawInt() {
    need(4);
    int v = buffer.getInt(position - bufferStart);
    position += 4;
    return v;
  }

  /** A compressed integer. */
  long varLong() {
    if (position + 9 > bufferEnd || position < bufferStart) {
      if (channel != null) {
        page(Math.min(9, limit - position));
      }
    }
    byte[] a = array;
    int p = base + position;
    int end = base + Math.min(limit, bufferEnd);
    long value = 0;
    for (int i = 0; i < 8; i++) {
      if (p >= end) {
        throw new JfrFormatException("a value runs past the end of its record", position);
      }
      int b = a[p++];
      value |= (long) (b & 0x7f) << (7 * i);
      if (b >= 0) {
        position = p - base;
        return value;
      }
    }
    if (p >= end) {
      throw new JfrFormatException("a value runs past the end of its record", position);
    }
    value |= (long) (a[p++] & 0xff) << 56;
    position = p - base;
    return value;
  }

  /** An int (JFR writes ints in the same form as longs). */
  int varInt() {
    return (int) varLong();
  }

  /** A short or char (JFR writes them in the same form as longs). */
  int varShort() {
    return (int) varLong();
  }

  /** A count that must fit in what is left of the record, at {@code minBytes} bytes an item. */
  int count(int minBytes) {
    int at = position;
    long n = varLong();
    if (n < 0 || n * Math.max(1, minBytes) > limit - position) {
      throw new JfrFormatException("an impossible count of " + n, at);
    }
    return (int) n;
  }

  /**
   * Skips {@code count} compressed integers: each ends at a byte below 0x80, or with its ninth.
   * Faster than reading them one by one, for the arrays of stack frames that fill constant pools.
   */
  void skipIntegers(long count) {
    int run = 0;
    byte[] a = array;
    int at = base;
    while (count > 0) {
      if (position >= limit) {
        throw new JfrFormatException("a value runs past the end of its record", position);
      }
      if (position >= bufferEnd || position < bufferStart) {
        page(1);
        at = base;
      }
      int stop = Math.min(limit, bufferEnd);
      int p = position;
      while (p < stop) {
        byte b = a[at + p++];
        if (b >= 0 || ++run == 9) {
          run = 0;
          if (--count == 0) {
            break;
          }
        }
      }
      position = p;
    }
  }

  void skip(int bytes) {
    if (bytes > limit - position) {
      throw new JfrFormatException("a value runs past the end of its record", position);
    }
    position += bytes;
  }

  float f4() {
    return Float.intBitsToFloat(rawInt());
  }

  double f8() {
    return Double.longBitsToDouble(rawLong());
  }

  /** Encoding bytes of JFR strings. */
  static final int STRING_NULL = 0;

  static final int STRING_EMPTY = 1;
  static final int STRING_POOL = 2;
  static final int STRING_UTF8 = 3;
  static final int STRING_CHARS = 4;
  static final int STRING_LATIN1 = 5;

  /** Reads an inline string; a constant-pool string is returned as its key via {@code pool}. */
  String string(StringPool pool) {
    int at = position;
    int encoding = u1();
    switch (encoding) {
      case STRING_NULL:
        return null;
      case STRING_EMPTY:
        return "";
      case STRING_POOL:
        return pool.string(varLong(), at);
      case STRING_UTF8:
        {
          int n = count(1);
          String s = decode(n, StandardCharsets.UTF_8);
          return s;
        }
      case STRING_LATIN1:
        {
          int n = count(1);
          return decode(n, StandardCharsets.ISO_8859_1);
        }
      case STRING_CHARS:
        {
          int n = count(1);
          char[] chars = new char[n];
          for (int i = 0; i < n; i++) {
            chars[i] = (char) varShort();
          }
          return new String(chars);
        }
      default:
        throw new JfrFormatException("an unknown string encoding " + encoding, at);
    }
  }

  /**
   * Reads an inline string as {@link #string} does, but a short one whose bytes {@code known} has
   * seen is its instance of them, neither decoded nor hashed again: the texts of events of one kind
   * (a pinned event's reason and blocking operation) repeat a few values, each written whole at
   * every event.
   */
  String string(StringPool pool, Texts known) {
    int at = position;
    int encoding = u1();
    if (encoding == STRING_UTF8 || encoding == STRING_LATIN1) {
      int n = count(1);
      if (n <= Texts.LONGEST) {
        need(n);
        int from = base + position;
        String text = known.find(encoding, array, from, n);
        if (text == null) {
          text =
              decode(
                  n,
                  encoding == STRING_UTF8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
          known.add(encoding, array, from, n, text);
        } else {
          position += n;
        }
        return text;
      }
      position = at;
    } else {
      position = at;
    }
    return string(pool);
  }

  /**
   * The last few distinct short texts read, with their bytes: {@link #string(StringPool, Texts)}.
   */
  static final class Texts {
    static final int LONGEST = 256;
    private static final int KEPT = 16;
    private final byte[][] bytes = new byte[KEPT][];
    private final int[] encodings = new int[KEPT];
    private final String[] texts = new String[KEPT];
    private int next;

    /** The entry found last: a field's texts come in runs of the same one. */
    private int last;

    String find(int encoding, byte[] array, int from, int n) {
      if (is(last, encoding, array, from, n)) {
        return texts[last];
      }
      for (int i = 0; i < KEPT; i++) {
        if (is(i, encoding, array, from, n)) {
          last = i;
          return texts[i];
        }
      }
      return null;
    }

    private boolean is(int i, int encoding, byte[] array, int from, int n) {
      byte[] b = bytes[i];
      return b != null
          && b.length == n
          && encodings[i] == encoding
          && java.util.Arrays.equals(b, 0, n, array, from, from + n);
    }

    void add(int encoding, byte[] array, int from, int n, String text) {
      bytes[next] = java.util.Arrays.copyOfRange(array, from, from + n);
      encodings[next] = encoding;
      texts[next] = text;
      last = next;
      next = (next + 1) % KEPT;
    }
  }

  /** Skips an inline string without decoding it. */
  void skipString() {
    int at = position;
    int encoding = u1();
    switch (encoding) {
      case STRING_NULL, STRING_EMPTY -> {}
      case STRING_POOL -> varLong();
      case STRING_UTF8, STRING_LATIN1 -> skip(count(1));
      case STRING_CHARS -> {
        int n = count(1);
        for (int i = 0; i < n; i++) {
          varShort();
        }
      }
      default -> throw new JfrFormatException("an unknown string encoding " + encoding, at);
    }
  }

  private String decode(int n, java.nio.charset.Charset charset) {
    byte[] bytes = new byte[n];
    if (channel != null && n > buffer.capacity()) {
      readFully(ByteBuffer.wrap(bytes)); // longer than a page: straight from the file
    } else {
      need(n);
      buffer.get(position - bufferStart, bytes);
    }
    position += n;
    return new String(bytes, charset);
  }

  /** Fills {@code target} with the file's bytes from the position on. */
  private void readFully(ByteBuffer target) {
    try {
      while (target.hasRemaining()) {
        if (channel.read(target, chunkFileOffset + position + target.position()) < 0) {
          throw new JfrFormatException("ends early: the file shrank while it was read", position);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Resolves strings a record refers to in the chunk's string constant pool. */
  interface StringPool {
    String string(long key, int offset);
  }
}
