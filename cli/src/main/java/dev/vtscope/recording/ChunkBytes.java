package dev.vtscope.recording;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over one chunk's bytes. Integers are JFR's compressed integers (seven bits a byte, low
 * bits first, a ninth byte taken whole) when the chunk header says so, and big-endian otherwise.
 * Every read checks the limit it was given, so damaged sizes and counts end in a {@link
 * JfrFormatException} rather than a read outside the record.
 */
final class ChunkBytes {

  private final ByteBuffer buffer;
  private final boolean compressed;
  private int position;
  private int limit;

  ChunkBytes(ByteBuffer buffer, boolean compressed) {
    this.buffer = buffer;
    this.compressed = compressed;
    this.limit = buffer.limit();
  }

  int position() {
    return position;
  }

  void position(int position) {
    if (position < 0 || position > buffer.limit()) {
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
    this.limit = Math.min(limit, buffer.limit());
    return previous;
  }

  int remaining() {
    return limit - position;
  }

  private void need(int bytes) {
    if (bytes > limit - position) {
      throw new JfrFormatException("a value runs past the end of its record", position);
    }
  }

  int u1() {
    need(1);
    return buffer.get(position++) & 0xff;
  }

  long rawLong() {
    need(8);
    long v = buffer.getLong(position);
    position += 8;
    return v;
  }

  int rawInt() {
    need(4);
    int v = buffer.getInt(position);
    position += 4;
    return v;
  }

  /** A long as the chunk encodes integers. */
  long varLong() {
    if (!compressed) {
      return rawLong();
    }
    int p = position;
    int end = limit;
    long value = 0;
    for (int i = 0; i < 8; i++) {
      if (p >= end) {
        throw new JfrFormatException("a value runs past the end of its record", position);
      }
      int b = buffer.get(p++);
      value |= (long) (b & 0x7f) << (7 * i);
      if (b >= 0) {
        position = p;
        return value;
      }
    }
    if (p >= end) {
      throw new JfrFormatException("a value runs past the end of its record", position);
    }
    value |= (long) (buffer.get(p++) & 0xff) << 56;
    position = p;
    return value;
  }

  /** An int as the chunk encodes integers (JFR writes ints in the same form as longs). */
  int varInt() {
    return compressed ? (int) varLong() : rawInt();
  }

  /** A short or char: compressed, or two bytes. */
  int varShort() {
    if (compressed) {
      return (int) varLong();
    }
    need(2);
    int v = buffer.getShort(position);
    position += 2;
    return v;
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

  void skip(int bytes) {
    need(bytes);
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
    buffer.get(position, bytes);
    position += n;
    return new String(bytes, charset);
  }

  /** Resolves strings a record refers to in the chunk's string constant pool. */
  interface StringPool {
    String string(long key, int offset);
  }
}
