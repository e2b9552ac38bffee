package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vtscope.testing.TestRecordings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Standard input and pipes are checked as they are copied. */
class StreamCopyTest {

  @TempDir Path dir;

  private static final Path SAMPLE =
      TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");

  /** A stream of {@code head} and then zeros without end, which counts what was read of it. */
  private static final class Endless extends InputStream {
    private final byte[] head;
    final AtomicLong read = new AtomicLong();

    Endless(byte[] head) {
      this.head = head;
    }

    @Override
    public int read() {
      long at = read.getAndIncrement();
      return at < head.length ? head[(int) at] & 0xff : 0;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      for (int i = 0; i < len; i++) {
        b[off + i] = (byte) read();
      }
      return len;
    }
  }

  private List<Path> left() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  @Test
  void aStreamThatIsNotARecordingIsRefusedFromItsFirstBytes() throws Exception {
    Endless zeros = new Endless(new byte[0]);
    StreamCopy copy = new StreamCopy(dir, () -> Long.MAX_VALUE, 0);
    assertThatThrownBy(() -> copy.copy("-", "standard input", () -> zeros))
        .isInstanceOfSatisfying(
            InputProblemException.class, e -> assertThat(e.notARecording()).isTrue())
        .hasMessage("-: not a JFR recording (no JFR file header)");
    // the header's bytes, not the gigabytes after them
    assertThat(zeros.read.get()).isEqualTo(ChunkHeader.SIZE);
    assertThat(left()).isEmpty();
  }

  @Test
  void anEmptyStreamHoldsNoRecording() {
    StreamCopy copy = new StreamCopy(dir, () -> Long.MAX_VALUE, 0);
    assertThatThrownBy(
            () -> copy.copy("-", "standard input", () -> new ByteArrayInputStream(new byte[0])))
        .isInstanceOfSatisfying(
            InputProblemException.class, e -> assertThat(e.notARecording()).isTrue())
        .hasMessage("-: standard input is empty");
  }

  @Test
  void aRecordingIsCopiedWhole() throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    Path copied =
        new StreamCopy(dir, () -> Long.MAX_VALUE, 0)
            .copy("-", "standard input", () -> new ByteArrayInputStream(bytes));
    assertThat(copied.getParent()).isEqualTo(dir);
    assertThat(Files.readAllBytes(copied)).isEqualTo(bytes);
  }

  /**
   * A recording followed by what is not one: the copy ends where its chunks do, with the first
   * bytes that start no chunk (for the reader to say where reading stopped), and reads nothing
   * after.
   */
  @Test
  void theCopyEndsWhereTheRecordingsChunksEnd() throws Exception {
    byte[] one = Files.readAllBytes(SAMPLE);
    byte[] two = new byte[one.length * 2];
    System.arraycopy(one, 0, two, 0, one.length);
    System.arraycopy(one, 0, two, one.length, one.length);
    Endless trailed = new Endless(two);
    Path copied =
        new StreamCopy(dir, () -> Long.MAX_VALUE, 0).copy("-", "standard input", () -> trailed);
    byte[] bytes = Files.readAllBytes(copied);
    assertThat(bytes).hasSize(two.length + ChunkHeader.SIZE);
    assertThat(java.util.Arrays.copyOf(bytes, two.length)).isEqualTo(two);
    assertThat(trailed.read.get()).isEqualTo(two.length + ChunkHeader.SIZE);
  }

  @Test
  void aStreamLargerThanTheFolderCanHoldStopsBeforeFillingItAndLeavesNothing() throws Exception {
    byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(SAMPLE), ChunkHeader.SIZE);
    // a chunk still being written: its header gives no size, so the stream is copied to its end
    java.nio.ByteBuffer.wrap(header).putLong(8, 0);
    Endless endless = new Endless(header);
    // 3 MB free, of which 2 MB are kept: the copy may take about one
    AtomicLong free = new AtomicLong(3L << 20);
    StreamCopy copy =
        new StreamCopy(
            dir,
            () -> {
              try (Stream<Path> files = Files.list(dir)) {
                long used = 0;
                for (Path f : files.toList()) {
                  used += Files.size(f);
                }
                return free.get() - used;
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            },
            2L << 20);
    assertThatThrownBy(() -> copy.copy("-", "standard input", () -> endless))
        .isInstanceOfSatisfying(
            InputProblemException.class, e -> assertThat(e.notARecording()).isFalse())
        .hasMessageStartingWith("-: standard input does not fit in the temporary folder " + dir)
        .hasMessageContaining("less than 2 MB of its file system would stay free")
        .hasMessageEndingWith("VTSCOPE_JAVA_OPTS=-Djava.io.tmpdir=FOLDER)");
    assertThat(endless.read.get()).isLessThan(2L << 20);
    assertThat(left()).isEmpty();
  }

  @Test
  void aFolderThatCannotTakeTheCopyIsSaid() throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    Path missing = dir.resolve("gone");
    assertThatThrownBy(
            () ->
                new StreamCopy(missing, () -> Long.MAX_VALUE, 0)
                    .copy("-", "standard input", () -> new ByteArrayInputStream(bytes)))
        .isInstanceOfSatisfying(
            InputProblemException.class, e -> assertThat(e.notARecording()).isFalse())
        .hasMessageStartingWith(
            "-: cannot copy standard input to the temporary folder " + missing + ": ");
  }

  @Test
  void aStreamThatFailsMidwayLeavesNoCopy() throws Exception {
    byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(SAMPLE), ChunkHeader.SIZE);
    InputStream failing =
        new java.io.SequenceInputStream(
            new ByteArrayInputStream(header),
            new InputStream() {
              @Override
              public int read() throws IOException {
                throw new IOException("Connection reset");
              }
            });
    assertThatThrownBy(
            () -> new StreamCopy(dir, () -> Long.MAX_VALUE, 0).copy("-", "the pipe", () -> failing))
        .hasMessage("-: cannot read the pipe (Connection reset)");
    assertThat(left()).isEmpty();
  }

  @Test
  void sizesAreSaidAsPeopleReadThem() {
    assertThat(StreamCopy.size(1200)).isEqualTo("2 KB");
    assertThat(StreamCopy.size(12L << 20)).isEqualTo("12 MB");
    assertThat(StreamCopy.size(3L << 29)).isEqualTo("1.5 GB");
  }
}
