import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The floor of reading a recording for its pinned events: reads each chunk's header, finds the type
 * id of {@code jdk.VirtualThreadPinned} in the chunk's metadata, walks every record by its size, and
 * reads only the pinned events' start time, duration, thread and stack id (no constant is looked
 * up). The chunks are read in parallel, one thread per CPU, each through a 1 MB window, as vtscope
 * reads them. It checks only what it must to not loop: a recording vtscope reads.
 *
 *   java [the launcher's JVM flags] -cp CLASSES RecordWalk FILE
 *
 * prints the pinned events' count, their summed duration in ticks and a hash of their threads and
 * stacks. bench/reading.sh runs it.
 */
public final class RecordWalk {

  private static final int WINDOW = 1 << 20;
  private static final int HEAD = 18;

  private record Totals(long records, long pinned, long durationTicks, long hash) {}

  public static void main(String[] args) throws Exception {
    try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ)) {
      List<long[]> chunks = new ArrayList<>();
      ByteBuffer header = ByteBuffer.allocate(68);
      long size = channel.size();
      for (long at = 0; at + 68 <= size; ) {
        header.clear();
        readFully(channel, header, at);
        if (header.getInt(0) != 0x464c5200) {
          throw new IOException("no chunk at " + at);
        }
        long chunkSize = header.getLong(8);
        if (chunkSize <= 68 || at + chunkSize > size) {
          break; // an unfinished chunk
        }
        chunks.add(new long[] {at, chunkSize, header.getLong(24)});
        at += chunkSize;
      }
      AtomicInteger next = new AtomicInteger();
      Totals[] totals = new Totals[chunks.size()];
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < Runtime.getRuntime().availableProcessors(); t++) {
        workers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      ByteBuffer window = ByteBuffer.allocate(WINDOW);
                      for (int i; (i = next.getAndIncrement()) < chunks.size(); ) {
                        long[] c = chunks.get(i);
                        try {
                          totals[i] = new Walker(channel, c[0], c[1], window).walk(c[2]);
                        } catch (IOException e) {
                          throw new java.io.UncheckedIOException(e);
                        }
                      }
                    }));
      }
      for (Thread w : workers) {
        w.join();
      }
      long records = 0, pinned = 0, duration = 0, hash = 0;
      for (Totals t : totals) {
        records += t.records;
        pinned += t.pinned;
        duration += t.durationTicks;
        hash ^= t.hash;
      }
      System.out.printf(
          "%d chunks, %d records, %d pinned, %d ticks pinned, hash %x%n",
          chunks.size(), records, pinned, duration, hash);
    }
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long at) throws IOException {
    while (into.hasRemaining()) {
      if (channel.read(into, at + into.position()) < 0) {
        throw new IOException("ends early");
      }
    }
    into.flip();
  }

  /** One chunk, walked through the window. */
  private static final class Walker {
    private final FileChannel channel;
    private final long chunkAt;
    private final long chunkSize;
    private final ByteBuffer window;
    private long windowStart;
    private int p;

    Walker(FileChannel channel, long chunkAt, long chunkSize, ByteBuffer window) {
      this.channel = channel;
      this.chunkAt = chunkAt;
      this.chunkSize = chunkSize;
      this.window = window;
      window.clear().limit(0);
      windowStart = 0;
    }

    /** Makes the window hold the chunk from {@code offset}, {@code need} bytes at least. */
    private void fill(long offset, int need) throws IOException {
      if (offset >= windowStart && offset + need <= windowStart + window.limit()) {
        return;
      }
      window.clear();
      window.limit((int) Math.min(window.capacity(), chunkSize - offset));
      readFully(channel, window, chunkAt + offset);
      windowStart = offset;
    }

    private long varLong() {
      byte[] w = window.array();
      long value = 0;
      for (int i = 0; i < 8; i++) {
        int b = w[p++];
        value |= (long) (b & 0x7f) << (7 * i);
        if (b >= 0) {
          return value;
        }
      }
      return value | (long) (w[p++] & 0xff) << 56;
    }

    Totals walk(long metadataOffset) throws IOException {
      int[] pinned = pinnedFields(metadataOffset);
      long pinnedId = pinned[0];
      int stackAt = pinned[1];
      if (pinnedId != Integer.MIN_VALUE && stackAt < 3) {
        throw new IOException("the pinned event's stack trace is not its fourth field or later");
      }
      long records = 0, count = 0, duration = 0, hash = 0;
      long position = 68;
      while (position < chunkSize) {
        fill(position, (int) Math.min(HEAD, chunkSize - position));
        p = (int) (position - windowStart);
        long size = varLong();
        long type = varLong();
        if (size <= 0) {
          throw new IOException("a record of size " + size);
        }
        records++;
        if (type == pinnedId) {
          fill(position, (int) size);
          p = (int) (position - windowStart);
          varLong();
          varLong();
          varLong(); // start time
          duration += varLong();
          long thread = varLong();
          long stack = 0;
          for (int i = 3; i <= stackAt; i++) {
            stack = varLong();
          }
          count++;
          hash = hash * 31 + thread * 17 + stack;
        }
        position += size;
      }
      return new Totals(records, count, duration, hash);
    }

    /**
     * The pinned event's type id and the index of its stack trace field, from the chunk's
     * metadata: its first fields (start time, duration, thread, stack trace) are each one integer.
     */
    private int[] pinnedFields(long offset) throws IOException {
      fill(offset, HEAD);
      p = (int) (offset - windowStart);
      long size = varLong();
      fill(offset, (int) size);
      p = (int) (offset - windowStart);
      for (int i = 0; i < 5; i++) {
        varLong(); // size, type, start, duration, metadata id
      }
      int strings = (int) varLong();
      String[] pool = new String[strings];
      for (int i = 0; i < strings; i++) {
        pool[i] = string();
      }
      int[] found = {-1, -1};
      element(pool, found, false);
      if (found[0] < 0 || found[1] < 0) {
        return new int[] {Integer.MIN_VALUE, 0}; // no pinned events in this chunk
      }
      return found;
    }

    private String string() {
      byte[] w = window.array();
      int encoding = w[p++];
      switch (encoding) {
        case 0:
          return null;
        case 1:
          return "";
        case 3:
        case 5:
          {
            int n = (int) varLong();
            String s =
                new String(
                    w,
                    p,
                    n,
                    encoding == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            p += n;
            return s;
          }
        case 4:
          {
            int n = (int) varLong();
            StringBuilder b = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
              b.append((char) varLong());
            }
            return b.toString();
          }
        default:
          throw new IllegalStateException("string encoding " + encoding);
      }
    }

    /**
     * Reads an element of the metadata tree; in the pinned event's class, notes its id and where
     * its stack trace field is among its fields.
     */
    private void element(String[] pool, int[] found, boolean inPinned) {
      String name = pool[(int) varLong()];
      int attributes = (int) varLong();
      String className = null;
      String fieldName = null;
      long id = -1;
      for (int i = 0; i < attributes; i++) {
        String key = pool[(int) varLong()];
        String value = pool[(int) varLong()];
        if (key.equals("name")) {
          className = value;
          fieldName = value;
        } else if (key.equals("id")) {
          id = Long.parseLong(value);
        }
      }
      boolean pinnedClass = name.equals("class") && "jdk.VirtualThreadPinned".equals(className);
      if (pinnedClass) {
        found[0] = (int) id;
        fieldIndex = 0;
      }
      if (inPinned && name.equals("field")) {
        if ("stackTrace".equals(fieldName)) {
          found[1] = fieldIndex;
        }
        fieldIndex++;
      }
      int children = (int) varLong();
      for (int i = 0; i < children; i++) {
        element(pool, found, pinnedClass);
      }
    }

    private int fieldIndex;
  }
}
