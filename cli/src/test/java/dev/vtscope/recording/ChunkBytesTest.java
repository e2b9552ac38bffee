package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vtscope.testing.TestRecordings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cursor that reads the chunk a page at a time from the file reads what one over the whole chunk
 * in memory reads, wherever values cross pages; and a chunk whose checkpoints stay in the file
 * keeps only its header, metadata and wanted events in memory.
 */
class ChunkBytesTest {

  @TempDir Path dir;

  /** A value written to the test chunk: a compressed integer or an inline string. */
  private record Item(int position, Long number, String text) {}

  @Test
  void pagedReadsEqualReadsInMemoryWhereverPagesEnd() throws IOException {
    Random random = new Random(42);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[ChunkHeader.SIZE], 0, ChunkHeader.SIZE);
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      int position = out.size();
      if (random.nextInt(10) == 0) {
        String text = text(random, random.nextInt(8) == 0 ? 5_000 : random.nextInt(60));
        writeString(out, text, random.nextInt(3));
        items.add(new Item(position, null, text));
      } else {
        long value = random.nextLong() >>> random.nextInt(64);
        writeLong(out, value);
        items.add(new Item(position, value, null));
      }
    }
    byte[] chunk = out.toByteArray();
    Path file = dir.resolve("chunk.bin");
    byte[] lead = new byte[123]; // the chunk starts inside the file, as a later chunk does
    Files.write(file, lead);
    Files.write(file, chunk, StandardOpenOption.APPEND);

    List<Object> inMemory = readAll(new ChunkBytes(ByteBuffer.wrap(chunk)), items);
    assertThat(inMemory).containsExactlyElementsOf(expected(items));
    try (FileChannel channel = FileChannel.open(file)) {
      for (int page : new int[] {16, 37, 4096, 1 << 20}) {
        ChunkBytes paged =
            new ChunkBytes(channel, lead.length, chunk.length, ByteBuffer.allocate(page));
        assertThat(readAll(paged, items)).as("pages of %d bytes", page).isEqualTo(inMemory);
        // runs of integers skipped at once land where reading them one by one does
        for (int i = 0; i + 1 < items.size(); i++) {
          int run = 0;
          while (i + run < items.size() && items.get(i + run).number() != null) {
            run++;
          }
          if (run > 0 && i + run < items.size()) {
            paged.position(items.get(i).position());
            paged.skipIntegers(run);
            assertThat(paged.position()).isEqualTo(items.get(i + run).position());
            i += run;
          }
        }
        // and back to front, a value here and there, as constants are resolved
        paged.pageBytes(24);
        for (int i = items.size() - 1; i >= 0; i -= 7) {
          paged.position(items.get(i).position());
          assertThat(read(paged, items.get(i))).isEqualTo(inMemory.get(i));
        }
      }
    }
  }

  @Test
  void integersSkippedPastTheRecordAreDamage() {
    byte[] chunk = new byte[ChunkHeader.SIZE + 3];
    chunk[ChunkHeader.SIZE] = (byte) 0x81; // an integer that goes on past the record's end
    chunk[ChunkHeader.SIZE + 1] = (byte) 0x81;
    chunk[ChunkHeader.SIZE + 2] = 1;
    ChunkBytes in = new ChunkBytes(ByteBuffer.wrap(chunk));
    in.position(ChunkHeader.SIZE);
    in.limit(ChunkHeader.SIZE + 2);
    assertThatThrownBy(() -> in.skipIntegers(1))
        .isInstanceOf(JfrFormatException.class)
        .hasMessageContaining("past the end of its record");
    in.limit(ChunkHeader.SIZE + 3);
    in.skipIntegers(1);
    assertThat(in.position()).isEqualTo(ChunkHeader.SIZE + 3);
  }

  @Test
  void aFileShorterThanTheChunkSaysSo() throws IOException {
    Path file = dir.resolve("short.bin");
    Files.write(file, new byte[100]);
    try (FileChannel channel = FileChannel.open(file)) {
      ChunkBytes paged = new ChunkBytes(channel, 0, 1_000, ByteBuffer.allocate(64));
      paged.position(90);
      assertThatThrownBy(paged::rawLong)
          .isInstanceOf(JfrFormatException.class)
          .hasMessageContaining("shrank");
    }
  }

  @Test
  void checkpointsStayInTheFile() throws IOException {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    List<ChunkHeader> chunks = ChunkScanner.scan(sample).chunks();
    assertThat(chunks).isNotEmpty();
    try (FileChannel channel = FileChannel.open(sample)) {
      for (ChunkHeader chunk : chunks) {
        ChunkCompactor.Compacted kept =
            new ChunkCompactor(
                    channel,
                    chunk,
                    chunk.size(),
                    ByteBuffer.allocate(1 << 20),
                    System.nanoTime() + 10_000_000_000L,
                    new MetadataCache())
                .compact(ChunkDecoder.WANTED_EVENTS);
        assertThat(kept.failure()).isNull();
        ChunkCompactor.Checkpoints checkpoints = kept.constants();
        assertThat(checkpoints.count()).isPositive();
        long checkpointBytes = 0;
        ChunkBytes file =
            new ChunkBytes(
                channel, chunk.fileOffset(), checkpoints.readable(), ByteBuffer.allocate(256));
        for (int i = 0; i < checkpoints.count(); i++) {
          file.position(checkpoints.starts()[i]);
          assertThat(file.varInt()).isEqualTo(checkpoints.sizes()[i]);
          assertThat(file.varLong()).as("a checkpoint's type id").isEqualTo(1);
          checkpointBytes += checkpoints.sizes()[i];
        }
        assertThat(kept.bytes().limit() + checkpointBytes).isLessThanOrEqualTo(chunk.size());
      }
    }
  }

  private static List<Object> expected(List<Item> items) {
    List<Object> values = new ArrayList<>();
    for (Item item : items) {
      values.add(item.number() != null ? item.number() : item.text());
    }
    return values;
  }

  private static List<Object> readAll(ChunkBytes in, List<Item> items) {
    in.position(ChunkHeader.SIZE);
    List<Object> values = new ArrayList<>();
    for (Item item : items) {
      assertThat(in.position()).isEqualTo(item.position());
      values.add(read(in, item));
    }
    return values;
  }

  private static Object read(ChunkBytes in, Item item) {
    return item.number() != null
        ? (Object) in.varLong()
        : in.string((key, offset) -> "pool " + key);
  }

  private static String text(Random random, int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      s.append(
          (char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0xe0 + random.nextInt(20)));
    }
    return s.toString();
  }

  /** JFR's compressed integer: seven bits a byte, low bits first, a ninth byte taken whole. */
  private static void writeLong(ByteArrayOutputStream out, long value) {
    for (int i = 0; i < 8; i++) {
      if ((value & ~0x7FL) == 0) {
        out.write((int) value);
        return;
      }
      out.write((int) (value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out.write((int) value);
  }

  /** An inline string in one of JFR's encodings: UTF-8, Latin-1 or chars. */
  private static void writeString(ByteArrayOutputStream out, String text, int encoding) {
    switch (encoding) {
      case 0 -> {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write(ChunkBytes.STRING_UTF8);
        writeLong(out, bytes.length);
        out.write(bytes, 0, bytes.length);
      }
      case 1 -> {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        out.write(ChunkBytes.STRING_LATIN1);
        writeLong(out, bytes.length);
        out.write(bytes, 0, bytes.length);
      }
      default -> {
        out.write(ChunkBytes.STRING_CHARS);
        writeLong(out, text.length());
        for (char c : text.toCharArray()) {
          writeLong(out, c);
        }
      }
    }
  }
}
