package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chunk header a JVM is rewriting (its file state byte, 64, set to 255 while it writes a flush's
 * figures) is read once the JVM is done, as the JDK's reader reads it, never half before and half
 * after: the torn header of a running JVM's repository pointed past the data it had written.
 */
class ChunkHeaderUpdateTest {

  private static final int SIZE = 8;
  private static final int FILE_STATE = 64;

  @TempDir Path dir;

  private static String report(Path file) {
    var inputs = List.of(new RecordingInput("chunk.jfr", List.of(file), false));
    return Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.VTSCOPE));
  }

  @Test
  void aHeaderBeingRewrittenIsReadWhenTheRewriteEnds() throws Exception {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    Path file = dir.resolve("rewritten.jfr");
    Files.copy(sample, file);
    String asWritten = report(sample);
    byte[] header = new byte[68];
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.readFully(header);
      // mid-rewrite: UPDATING, and a size the data does not reach yet
      raf.seek(FILE_STATE);
      raf.write(255);
      raf.seek(SIZE);
      raf.writeLong(Files.size(file) * 2);
    }
    CompletableFuture<Void> rewrite =
        CompletableFuture.runAsync(
            () -> {
              try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                Thread.sleep(100);
                raf.seek(0);
                raf.write(header); // the figures, then the state: the JVM's order
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    String read = report(file);
    rewrite.get(30, TimeUnit.SECONDS);
    assertThat(read).isEqualTo(asWritten);
  }

  @Test
  void aHeaderLeftBeingRewrittenIsReadAfterAWhileAsAChunkInProgress() throws Exception {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    Path file = dir.resolve("abandoned.jfr");
    Files.copy(sample, file);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(FILE_STATE);
      raf.write(255);
    }
    // the writer died mid-rewrite: no hang, the chunk read as one still being written
    assertThat(report(file)).contains("\"in-progress\"").doesNotContain("\"damaged-data\"");
  }
}
