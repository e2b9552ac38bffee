package dev.vtscope.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * Generates damaged and hostile inputs from the samples, each with the outcome it must get: a
 * truncation at every structure of a chunk, bit flips, zeroed and 0xFF pages, crafted header fields
 * and records, concatenations (valid, of different JVMs, duplicated, with garbage before or after),
 * other formats, and files that are not files. Made fresh by every run, from a fixed seed, into a
 * folder the caller owns; nothing of it is committed.
 */
public final class HostileCorpus {

  /** What vtscope must do with an input. */
  public enum Expect {
    /** Read whole: exit 0, no warning about the reading. */
    READ,
    /** Exit 4 (not a recording), or exit 0 with a warning that says what was left out. */
    REFUSED_OR_SALVAGED,
    /** Any documented outcome but 1 or 2: the damage may hit values no reader can check. */
    NO_CRASH,
    /** Exit 3: not a file vtscope opens. */
    NOT_A_FILE,
    /** Exit 4. */
    NOT_A_RECORDING
  }

  /** One input of the corpus. */
  public record Input(String name, Path path, Expect expect) {}

  private static final int HEADER = 68;

  private HostileCorpus() {}

  /** Writes the corpus to {@code dir}. */
  public static List<Input> generate(Path dir) throws IOException {
    Path samples = TestRecordings.repoRoot().resolve("samples");
    byte[] a = Files.readAllBytes(samples.resolve("jdk21/pinning-synchronized.jfr"));
    byte[] b = Files.readAllBytes(samples.resolve("jdk21/submit-failed.jfr"));
    byte[] c = Files.readAllBytes(samples.resolve("jdk25/native-pinning.jfr"));
    byte[] two = concat(a, b); // two chunks of one file
    List<Input> corpus = new ArrayList<>();
    Random random = new Random(20261123L);

    // Valid concatenations.
    corpus.add(write(dir, "valid-two-chunks", two, Expect.READ));
    corpus.add(write(dir, "valid-duplicated", concat(a, a), Expect.READ));
    corpus.add(write(dir, "valid-cross-jvm", concat(a, c, b), Expect.READ));

    // Truncations: inside the header, at every record boundary region, and across the file.
    List<Long> cuts = new ArrayList<>();
    for (long at = 1; at <= HEADER + 4; at += 3) {
      cuts.add(at);
    }
    long metadata = ByteBuffer.wrap(a).getLong(24);
    long constants = ByteBuffer.wrap(a).getLong(16);
    for (long around : new long[] {metadata, constants, a.length}) {
      for (long d = -2; d <= 2; d++) {
        cuts.add(around + d);
      }
    }
    for (int i = 1; i < 32; i++) {
      cuts.add((long) two.length * i / 32);
    }
    for (long cut : cuts) {
      if (cut > 0 && cut < two.length) {
        corpus.add(
            write(
                dir,
                "truncated-at-" + cut,
                Arrays.copyOf(two, (int) cut),
                cut == a.length ? Expect.READ : Expect.REFUSED_OR_SALVAGED));
      }
    }

    // Bit flips and runs of 0xFF anywhere in the two chunks.
    for (int i = 0; i < 48; i++) {
      byte[] flipped = two.clone();
      int at = random.nextInt(flipped.length);
      flipped[at] ^= (byte) (1 << random.nextInt(8));
      corpus.add(write(dir, "bit-flip-at-" + at, flipped, Expect.NO_CRASH));
    }
    for (int i = 0; i < 16; i++) {
      byte[] run = two.clone();
      int at = random.nextInt(run.length - 8);
      Arrays.fill(run, at, at + 8, (byte) 0xFF);
      corpus.add(write(dir, "ff-run-at-" + at, run, Expect.NO_CRASH));
    }

    // Zeroed and 0xFF pages.
    for (int page = 0; page * 4096 < two.length; page += 3) {
      for (byte fill : new byte[] {0, (byte) 0xFF}) {
        byte[] paged = two.clone();
        Arrays.fill(paged, page * 4096, Math.min(paged.length, page * 4096 + 4096), fill);
        corpus.add(
            write(dir, (fill == 0 ? "zero" : "ff") + "-page-" + page, paged, Expect.NO_CRASH));
      }
    }

    // Crafted header fields of the first and of the second chunk.
    long[][] longFields = {
      {8, 0}, {8, 1}, {8, HEADER}, {8, Long.MAX_VALUE}, {8, -1}, {8, two.length + 1L},
      {16, 0}, {16, -1}, {16, Long.MAX_VALUE}, {24, 0}, {24, HEADER}, {24, -1},
      {24, Long.MAX_VALUE}, {32, -1}, {40, -1}, {48, Long.MAX_VALUE}, {56, 0}, {56, -1}
    };
    for (int chunk = 0; chunk < 2; chunk++) {
      int base = chunk == 0 ? 0 : a.length;
      for (long[] field : longFields) {
        byte[] crafted = two.clone();
        ByteBuffer.wrap(crafted).putLong(base + (int) field[0], field[1]);
        corpus.add(
            write(
                dir,
                "chunk" + (chunk + 1) + "-field" + field[0] + "-" + field[1],
                crafted,
                // sizes and offsets are structure; times (32-63) and the constant-pool offset
                // (never followed: every record is walked) are values
                field[0] == 8 || field[0] == 24 ? Expect.REFUSED_OR_SALVAGED : Expect.NO_CRASH));
      }
      for (int[] field : new int[][] {{4, 3}, {4, 0}, {6, 9}, {64, 1}, {64, 7}, {67, 4}, {67, 0}}) {
        byte[] crafted = two.clone();
        if (field[0] == 4 || field[0] == 6) {
          ByteBuffer.wrap(crafted).putShort(base + field[0], (short) field[1]);
        } else {
          crafted[base + field[0]] = (byte) field[1];
        }
        corpus.add(
            write(
                dir,
                "chunk" + (chunk + 1) + "-byte" + field[0] + "-" + field[1],
                crafted,
                // a major version vtscope does not know is refused; flags are read past, as the
                // JDK's reader does (its integers are compressed whatever they say); a minor
                // version or a file state (read up to the header's size) are values
                field[0] == 4
                    ? Expect.REFUSED_OR_SALVAGED
                    : field[0] == 67 ? Expect.READ : Expect.NO_CRASH));
      }
    }

    // Crafted records: the first record of size 0, of a size past the chunk, of a huge varint.
    byte[] zeroRecord = two.clone();
    zeroRecord[HEADER] = 0;
    corpus.add(write(dir, "record-size-zero", zeroRecord, Expect.REFUSED_OR_SALVAGED));
    byte[] hugeRecord = two.clone();
    for (int i = 0; i < 9; i++) {
      hugeRecord[HEADER + i] = (byte) 0xFF;
    }
    corpus.add(write(dir, "record-size-huge", hugeRecord, Expect.REFUSED_OR_SALVAGED));
    byte[] metadataCounts = two.clone();
    Arrays.fill(metadataCounts, (int) metadata + 4, (int) metadata + 24, (byte) 0xFF);
    corpus.add(write(dir, "metadata-counts", metadataCounts, Expect.REFUSED_OR_SALVAGED));
    byte[] constantsLoop = two.clone();
    // the last checkpoint's delta made to point at itself: a chain that loops
    ByteBuffer.wrap(constantsLoop).putLong(16, constants);
    corpus.add(write(dir, "checkpoint-self-delta", constantsLoop, Expect.NO_CRASH));

    // Garbage before and after.
    byte[] garbage = new byte[100];
    random.nextBytes(garbage);
    corpus.add(write(dir, "garbage-head", concat(garbage, a), Expect.NOT_A_RECORDING));
    corpus.add(write(dir, "garbage-tail", concat(a, garbage), Expect.REFUSED_OR_SALVAGED));
    corpus.add(
        write(
            dir,
            "valid-then-truncated",
            concat(a, Arrays.copyOf(b, b.length / 2)),
            Expect.REFUSED_OR_SALVAGED));

    // Other formats and degenerate files.
    corpus.add(write(dir, "empty", new byte[0], Expect.NOT_A_RECORDING));
    corpus.add(write(dir, "magic-only", "FLR\0".getBytes(), Expect.NOT_A_RECORDING));
    corpus.add(write(dir, "header-only", Arrays.copyOf(a, HEADER), Expect.NOT_A_RECORDING));
    corpus.add(
        write(dir, "text", "not a recording\n".repeat(100).getBytes(), Expect.NOT_A_RECORDING));
    corpus.add(
        write(
            dir,
            "png",
            new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13},
            Expect.NOT_A_RECORDING));
    java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(a);
    }
    corpus.add(write(dir, "gzipped", zipped.toByteArray(), Expect.NOT_A_RECORDING));

    // Paths that are not regular files.
    Path link = dir.resolve("link-to-sample.jfr");
    Files.createSymbolicLink(link, samples.resolve("jdk21/pinning-synchronized.jfr"));
    corpus.add(new Input("symbolic-link", link, Expect.READ));
    Path dangling = dir.resolve("dangling-link.jfr");
    Files.createSymbolicLink(dangling, dir.resolve("nowhere.jfr"));
    corpus.add(new Input("dangling-link", dangling, Expect.NOT_A_FILE));
    Path folder = Files.createDirectories(dir.resolve("empty-folder.jfr"));
    corpus.add(new Input("empty-folder", folder, Expect.NOT_A_FILE));
    // A socket file (a named pipe is read as standard input is: BadInputTest writes into one).
    Path socket = dir.resolve("socket.jfr");
    try (java.nio.channels.ServerSocketChannel server =
        java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      server.bind(java.net.UnixDomainSocketAddress.of(socket));
    }
    corpus.add(new Input("socket", socket, Expect.NOT_A_FILE));
    return corpus;
  }

  private static Input write(Path dir, String name, byte[] bytes, Expect expect)
      throws IOException {
    return new Input(name, Files.write(dir.resolve(name + ".jfr"), bytes), expect);
  }

  private static byte[] concat(byte[]... parts) {
    int size = 0;
    for (byte[] p : parts) {
      size += p.length;
    }
    byte[] all = new byte[size];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    return all;
  }
}
