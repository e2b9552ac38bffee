package dev.vtscope.attribution;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * A JDK's {@code lib/modules} file (the "jimage" format jlink writes), read by vtscope itself for
 * the class files of another JDK than the one running it. The JDK's own way, the {@code jrt} file
 * system with that JDK's {@code java.home}, loads that JDK's {@code jrt-fs.jar} into a class loader
 * and maps the image: some 40% of a small recording's analysis, against about a millisecond here.
 *
 * <p>The file starts with a header of seven ints (magic {@code 0xCAFEDADA}, version 1.0, flags,
 * resource count, table length, sizes of the location attributes and of the strings) in the byte
 * order of the platform that made it, then the index: a table that redirects a name's hash to a
 * location (a perfect hash with a seed per bucket), the offsets of the locations, the locations
 * (attributes: kind and length in one byte, then the value's bytes, big-endian) and the strings
 * (modified UTF-8, each ended by a zero). A resource's bytes follow the index at its location's
 * offset. {@code /packages/<pkg>} names a resource that lists, as pairs of ints, a flag and the
 * string offset of each module holding the package.
 *
 * <p>Anything this reader does not know (another version, a compressed resource, an offset out of
 * range) makes it answer {@link Lookup#UNREADABLE}, and the caller asks the {@code jrt} file
 * system.
 */
final class JimageFile implements AutoCloseable {

  private static final int MAGIC = 0xCAFEDADA;
  private static final int HEADER_BYTES = 7 * 4;
  private static final int HASH_MULTIPLIER = 0x01000193;

  private static final int MODULE = 1;
  private static final int PARENT = 2;
  private static final int BASE = 3;
  private static final int EXTENSION = 4;
  private static final int OFFSET = 5;
  private static final int COMPRESSED = 6;
  private static final int UNCOMPRESSED = 7;
  private static final int ATTRIBUTE_KINDS = 8;

  /** What a lookup found: the bytes, nothing, or that this reader cannot tell. */
  record Lookup(Optional<byte[]> bytes, boolean readable) {
    static final Lookup ABSENT = new Lookup(Optional.empty(), true);
    static final Lookup UNREADABLE = new Lookup(Optional.empty(), false);
  }

  private final FileChannel file;
  private final ByteBuffer index;
  private final int tableLength;
  private final int redirectAt;
  private final int offsetsAt;
  private final int locationsAt;
  private final int locationsSize;
  private final int stringsAt;
  private final int stringsSize;
  private final long indexSize;

  private JimageFile(
      FileChannel file, ByteBuffer index, int tableLength, int locationsSize, int stringsSize) {
    this.file = file;
    this.index = index;
    this.tableLength = tableLength;
    this.redirectAt = HEADER_BYTES;
    this.offsetsAt = redirectAt + 4 * tableLength;
    this.locationsAt = offsetsAt + 4 * tableLength;
    this.locationsSize = locationsSize;
    this.stringsAt = locationsAt + locationsSize;
    this.stringsSize = stringsSize;
    this.indexSize = (long) stringsAt + stringsSize;
  }

  /** The image at {@code modules}, or empty when it is not one this reader knows. */
  static Optional<JimageFile> open(Path modules) {
    FileChannel file = null;
    try {
      file = FileChannel.open(modules, StandardOpenOption.READ);
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      readFully(file, header, 0);
      if (header.getInt(0) != MAGIC) {
        header.order(ByteOrder.BIG_ENDIAN);
      }
      int version = header.getInt(4);
      int tableLength = header.getInt(16);
      int locationsSize = header.getInt(20);
      int stringsSize = header.getInt(24);
      long indexSize = HEADER_BYTES + 8L * tableLength + locationsSize + (long) stringsSize;
      if (header.getInt(0) != MAGIC
          || version >>> 16 != 1
          || tableLength <= 0
          || locationsSize < 0
          || stringsSize < 0
          || indexSize > Integer.MAX_VALUE
          || indexSize > file.size()) {
        file.close();
        return Optional.empty();
      }
      ByteBuffer index = ByteBuffer.allocate((int) indexSize).order(header.order());
      readFully(file, index, 0);
      return Optional.of(new JimageFile(file, index, tableLength, locationsSize, stringsSize));
    } catch (IOException | RuntimeException e) {
      if (file != null) {
        try {
          file.close();
        } catch (IOException ignored) {
          // nothing was read from it
        }
      }
      return Optional.empty();
    }
  }

  /** The class file of {@code className} (binary name with dots) in the image. */
  Lookup classFile(String className) {
    try {
      int dot = className.lastIndexOf('.');
      if (dot <= 0) {
        return Lookup.ABSENT;
      }
      String pkg = className.substring(0, dot);
      String path = className.replace('.', '/') + ".class";
      Lookup modules = resource("/packages/" + pkg);
      if (!modules.readable() || modules.bytes().isEmpty()) {
        return modules;
      }
      ByteBuffer pairs = ByteBuffer.wrap(modules.bytes().get()).order(index.order());
      for (int at = 0; at + 8 <= pairs.limit(); at += 8) {
        String module = string(pairs.getInt(at + 4));
        Lookup found = resource("/" + module + "/" + path);
        if (!found.readable() || found.bytes().isPresent()) {
          return found;
        }
      }
      return Lookup.ABSENT;
    } catch (IOException | RuntimeException e) {
      return Lookup.UNREADABLE;
    }
  }

  /** The resource of that full name, e.g. {@code /java.base/java/lang/Object.class}. */
  private Lookup resource(String name) throws IOException {
    int bucket = index.getInt(redirectAt + 4 * (hash(name, HASH_MULTIPLIER) % tableLength));
    int slot;
    if (bucket < 0) {
      slot = -bucket - 1;
    } else if (bucket > 0) {
      slot = hash(name, bucket) % tableLength;
    } else {
      return Lookup.ABSENT;
    }
    if (slot < 0 || slot >= tableLength) {
      return Lookup.UNREADABLE;
    }
    long[] attributes = attributes(index.getInt(offsetsAt + 4 * slot));
    if (!name.equals(nameOf(attributes))) {
      return Lookup.ABSENT; // the hash led to another name: this one is not in the image
    }
    if (attributes[COMPRESSED] != 0 || attributes[UNCOMPRESSED] > Integer.MAX_VALUE) {
      return Lookup.UNREADABLE;
    }
    long at = indexSize + attributes[OFFSET];
    int size = (int) attributes[UNCOMPRESSED];
    if (at < indexSize || at + size > file.size()) {
      return Lookup.UNREADABLE;
    }
    ByteBuffer bytes = ByteBuffer.allocate(size);
    readFully(file, bytes, at);
    return new Lookup(Optional.of(bytes.array()), true);
  }

  /** The full name a location stands for: {@code /module/parent/base.extension}. */
  private String nameOf(long[] attributes) {
    StringBuilder name = new StringBuilder();
    String module = string((int) attributes[MODULE]);
    if (!module.isEmpty()) {
      name.append('/').append(module).append('/');
    }
    String parent = string((int) attributes[PARENT]);
    if (!parent.isEmpty()) {
      name.append(parent).append('/');
    }
    name.append(string((int) attributes[BASE]));
    String extension = string((int) attributes[EXTENSION]);
    if (!extension.isEmpty()) {
      name.append('.').append(extension);
    }
    return name.toString();
  }

  private long[] attributes(int offset) {
    if (offset < 0 || offset >= locationsSize) {
      throw new IndexOutOfBoundsException("a location outside the image's index: " + offset);
    }
    long[] attributes = new long[ATTRIBUTE_KINDS];
    int at = locationsAt + offset;
    int end = locationsAt + locationsSize;
    while (at < end) {
      int head = index.get(at++) & 0xFF;
      int kind = head >>> 3;
      if (kind == 0) {
        break;
      }
      if (kind >= ATTRIBUTE_KINDS) {
        throw new IllegalStateException("an unknown location attribute: " + kind);
      }
      int length = (head & 0x7) + 1;
      long value = 0;
      for (int i = 0; i < length && at < end; i++) {
        value = (value << 8) | (index.get(at++) & 0xFF);
      }
      attributes[kind] = value;
    }
    return attributes;
  }

  /** The string at {@code offset} of the strings table; names are ASCII in JDK images. */
  private String string(int offset) {
    if (offset < 0 || offset >= stringsSize) {
      throw new IndexOutOfBoundsException("a string outside the image's index: " + offset);
    }
    int start = stringsAt + offset;
    int end = start;
    int limit = stringsAt + stringsSize;
    while (end < limit && index.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - start];
    index.get(start, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * The image's hash of a name: FNV-1 style over the name's modified UTF-8 bytes, starting from
   * {@code seed}, kept positive.
   */
  static int hash(String name, int seed) {
    int h = seed;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c != 0 && c < 0x80) {
        h = (h * HASH_MULTIPLIER) ^ c;
      } else if (c < 0x800) {
        h = (h * HASH_MULTIPLIER) ^ (0xC0 | (c >> 6));
        h = (h * HASH_MULTIPLIER) ^ (0x80 | (c & 0x3F));
      } else {
        h = (h * HASH_MULTIPLIER) ^ (0xE0 | (c >> 12));
        h = (h * HASH_MULTIPLIER) ^ (0x80 | ((c >> 6) & 0x3F));
        h = (h * HASH_MULTIPLIER) ^ (0x80 | (c & 0x3F));
      }
    }
    return h & 0x7FFFFFFF;
  }

  private static void readFully(FileChannel file, ByteBuffer into, long position)
      throws IOException {
    long at = position;
    while (into.hasRemaining()) {
      int read = file.read(into, at);
      if (read < 0) {
        throw new IOException("the image ends early");
      }
      at += read;
    }
  }

  @Override
  public void close() {
    try {
      file.close();
    } catch (IOException e) {
      // read-only: nothing is lost
    }
  }
}
