package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records whose type the metadata does not declare are skipped and counted, whichever way the
 * record walk reads their head: a one-byte size (its quick loop) or a longer one (its general
 * step), an id inside the range the metadata declares or beyond it.
 */
class UndeclaredTypesTest {

  @Test
  void recordsOfUndeclaredTypesAreCountedInTheNotes(@TempDir Path dir) throws IOException {
    byte[] bytes =
        Files.readAllBytes(TestRecordings.repoRoot().resolve("samples/jdk25/native-pinning.jfr"));
    ByteBuffer file = ByteBuffer.wrap(bytes);
    int chunkSize = (int) file.getLong(8);
    int metadataAt = (int) file.getLong(24);
    ChunkBytes in = new ChunkBytes(ByteBuffer.wrap(bytes, 0, chunkSize).slice());
    in.position(metadataAt);
    JfrMetadata metadata = JfrMetadata.read(in);

    long max = 0;
    for (JfrMetadata.Type t : metadata.types()) {
      max = Math.max(max, t.id);
    }
    int inside = -1; // an id of two bytes the metadata leaves out, below its largest
    for (int id = 128; id < max && inside < 0; id++) {
      if (metadata.type(id) == null) {
        inside = id;
      }
    }
    int beyond = (int) max + 1;
    assertThat(inside).as("a gap among the declared ids").isPositive();
    assertThat(beyond).as("an id of two bytes").isLessThan(1 << 14);

    // Overwrite the type id of two events whose head is a one-byte size and a two-byte
    // id, keeping each record's length: the walk's quick loop reads them.
    int overwritten = 0;
    java.util.List<Integer> checkpoints = new java.util.ArrayList<>();
    for (int at = ChunkHeader.SIZE; at < chunkSize; ) {
      int size = (int) varint(bytes, at);
      int sizeBytes = varintLength(bytes, at);
      long type = varint(bytes, at + sizeBytes);
      if (sizeBytes == 1 && varintLength(bytes, at + 1) == 2 && type > 1 && overwritten < 2) {
        writeVarint(bytes, at + 1, overwritten == 0 ? inside : beyond, 2);
        overwritten++;
      }
      if (type == 1 && sizeBytes == 4 && varintLength(bytes, at + 4) == 1) {
        checkpoints.add(at);
      }
      at += size;
    }
    assertThat(overwritten).isEqualTo(2);
    // And two checkpoints' heads (a size padded to four bytes, an id of one): each size padded to
    // three bytes and an undeclared id of two, the same five bytes. The quick loop leaves a head of
    // a longer size to the general step.
    assertThat(checkpoints).hasSizeGreaterThanOrEqualTo(2);
    int[] ids = {inside, beyond};
    for (int k = 0; k < 2; k++) {
      int at = checkpoints.get(checkpoints.size() - 1 - k);
      writeVarint(bytes, at, (int) varint(bytes, at), 3);
      writeVarint(bytes, at + 3, ids[k], 2);
    }

    Path damaged = dir.resolve("undeclared.jfr");
    Files.write(damaged, bytes);

    Cli.Result r = Cli.run("analyze", "--format", "json", damaged.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("4 records of event types the recording does not declare were skipped");
  }

  private static long varint(byte[] b, int at) {
    long value = 0;
    for (int i = 0; i < 9; i++) {
      int x = b[at + i];
      value |= (long) (i == 8 ? x & 0xff : x & 0x7f) << (7 * i);
      if (x >= 0 || i == 8) {
        return value;
      }
    }
    return value;
  }

  private static int varintLength(byte[] b, int at) {
    int n = 1;
    while (n < 9 && b[at + n - 1] < 0) {
      n++;
    }
    return n;
  }

  /** Writes {@code value} as a compressed integer of exactly {@code length} bytes. */
  private static void writeVarint(byte[] b, int at, int value, int length) {
    for (int i = 0; i < length; i++) {
      int seven = (value >>> (7 * i)) & 0x7f;
      b[at + i] = (byte) (i < length - 1 ? seven | 0x80 : seven);
    }
    assertThat(value >>> (7 * length)).as("fits in %d bytes", length).isZero();
  }
}
