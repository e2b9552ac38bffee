package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The fuzzing step of the suite: a bounded number of random damages (bit flips, overwritten words
 * with edge values, cut or spliced bytes) to real recordings, each read by vtscope's own reader
 * through the command line. Whatever the damage, the outcome is documented (exit 0, 3 or 4), an
 * error is one line without a stack trace, and every read ends in time. jqwik shrinks a failure to
 * its smallest damage and replays it first on the next run; inputs it found are kept below as
 * examples.
 */
class ReaderFuzzTest {

  private static final List<String> SOURCES =
      List.of(
          "jdk21/pinning-synchronized.jfr", "jdk21/submit-failed.jfr", "jdk25/native-pinning.jfr");

  private static Path dir;
  private static List<byte[]> recordings;

  @BeforeContainer
  static void load() throws IOException {
    dir = Files.createTempDirectory("vtscope-fuzz");
    Path samples = TestRecordings.repoRoot().resolve("samples");
    recordings =
        List.of(
            Files.readAllBytes(samples.resolve(SOURCES.get(0))),
            Files.readAllBytes(samples.resolve(SOURCES.get(1))),
            Files.readAllBytes(samples.resolve(SOURCES.get(2))));
  }

  @AfterContainer
  static void clean() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(dir);
  }

  /** One damage: where, what kind, and a value. */
  record Damage(int kind, double where, long value) {}

  @Provide
  Arbitrary<List<Damage>> damages() {
    Arbitrary<Damage> one =
        Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.doubles().between(0, 1),
                Arbitraries.<Long>oneOf(
                    Arbitraries.longs(),
                    Arbitraries.of(
                        new Long[] {
                          0L,
                          1L,
                          -1L,
                          68L,
                          0x7fL,
                          0x80L,
                          Long.MAX_VALUE,
                          Long.MIN_VALUE,
                          (long) Integer.MAX_VALUE,
                          1L << 32
                        })))
            .as(Damage::new);
    return one.list().ofMinSize(1).ofMaxSize(4);
  }

  @Property(tries = 400, seed = "20261123")
  void anyDamageGetsADocumentedOutcome(
      @ForAll("damages") List<Damage> damages,
      @ForAll("recordingIndex") int recording,
      @ForAll("copies") int copies)
      throws Exception {
    byte[] bytes = recordings.get(recording);
    if (copies > 1) {
      byte[] two = new byte[bytes.length * copies];
      for (int i = 0; i < copies; i++) {
        System.arraycopy(bytes, 0, two, i * bytes.length, bytes.length);
      }
      bytes = two;
    } else {
      bytes = bytes.clone();
    }
    for (Damage d : damages) {
      bytes = apply(bytes, d);
    }
    check(bytes);
  }

  @Provide
  Arbitrary<Integer> recordingIndex() {
    return Arbitraries.integers().between(0, SOURCES.size() - 1);
  }

  @Provide
  Arbitrary<Integer> copies() {
    return Arbitraries.integers().between(1, 2);
  }

  /** A second chunk whose header says it is a chunk of 68 bytes, then garbage. */
  @Example
  void aChunkOfOnlyAHeaderFollowedByGarbage() throws Exception {
    byte[] one = recordings.get(0);
    byte[] bytes = new byte[one.length * 2];
    System.arraycopy(one, 0, bytes, 0, one.length);
    System.arraycopy(one, 0, bytes, one.length, one.length);
    ByteBuffer.wrap(bytes).putLong(one.length + 8, 68);
    check(bytes);
  }

  private static byte[] apply(byte[] bytes, Damage d) {
    if (bytes.length == 0) {
      return bytes;
    }
    int at = (int) Math.min(bytes.length - 1, Math.floor(d.where() * bytes.length));
    switch (d.kind()) {
      case 0 -> bytes[at] ^= (byte) (1 << (int) Math.floorMod(d.value(), 8));
      case 1 -> {
        // a word overwritten with an edge value (a size, an offset, a count)
        int from = Math.min(at, bytes.length - 8);
        if (from >= 0) {
          ByteBuffer.wrap(bytes).putLong(from, d.value());
        }
      }
      case 2 -> {
        return java.util.Arrays.copyOf(bytes, at); // cut
      }
      case 3 -> {
        // a run of one byte value, as a zeroed or 0xFF page would leave
        int end = (int) Math.min(bytes.length, at + 1 + Math.floorMod(d.value(), 512));
        java.util.Arrays.fill(bytes, at, end, (byte) d.value());
      }
      default -> {
        // bytes spliced in
        int n = (int) Math.floorMod(d.value(), 64);
        byte[] spliced = new byte[bytes.length + n];
        System.arraycopy(bytes, 0, spliced, 0, at);
        java.util.Arrays.fill(spliced, at, at + n, (byte) (d.value() >>> 8));
        System.arraycopy(bytes, at, spliced, at + n, bytes.length - at);
        return spliced;
      }
    }
    return bytes;
  }

  private static void check(byte[] bytes) throws Exception {
    Path file = Files.write(Files.createTempFile(dir, "fuzz", ".jfr"), bytes);
    try {
      long started = System.nanoTime();
      Cli.Result result = Cli.run("analyze", "--format", "json", file.toString());
      long seconds = (System.nanoTime() - started) / 1_000_000_000L;
      String what = result.exitCode() + ": " + result.err();
      // a guard against a reader that loops on damage, not a measure: far beyond any loaded machine
      assertThat(seconds).as("seconds to read a damaged recording").isLessThan(300);
      assertThat(result.exitCode()).as(what).isIn(0, 3, 4);
      if (result.exitCode() == 0) {
        assertThat(result.err()).as(what).isEmpty();
        assertThat(result.out()).startsWith("{");
      } else {
        assertThat(result.err().lines().count()).as(what).isEqualTo(1);
        assertThat(result.err()).as(what).doesNotContain("Exception").doesNotContain("\tat ");
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
