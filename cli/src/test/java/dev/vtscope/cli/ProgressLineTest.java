package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.ReadProgress;
import dev.vtscope.recording.RecordingInput;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress line shows on a terminal for large inputs only, and is cleared when done. */
class ProgressLineTest {

  @TempDir Path dir;

  @AfterEach
  void forget() {
    System.clearProperty("vtscope.stderrTerminal");
  }

  private List<RecordingInput> inputOf(long bytes) throws Exception {
    Path file = dir.resolve("big-" + bytes + ".jfr");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(bytes); // sparse: nothing is written
    }
    return List.of(new RecordingInput(file.toString(), List.of(file), false));
  }

  @Test
  void onATerminalALargeInputShowsBytesChunksAndTimeThenClearsIt() throws Exception {
    System.setProperty("vtscope.stderrTerminal", "true");
    StringWriter err = new StringWriter();
    ReadProgress progress =
        ProgressLine.forInputs(inputOf(ProgressLine.MIN_BYTES * 2), true, new PrintWriter(err));
    assertThat(progress).isInstanceOf(ProgressLine.class);
    Thread.sleep(350); // the line waits a moment, so fast reads show nothing
    progress.chunkRead(ProgressLine.MIN_BYTES);
    assertThat(err.toString())
        .startsWith("\rvtscope: reading 64 MiB of 128 MiB (50%), 1 chunk, ")
        .endsWith(" s\033[K");
    progress.done();
    assertThat(err.toString()).endsWith("\r\033[K");
  }

  @Test
  void nothingInPipesWithQuietOrForSmallInputs() throws Exception {
    System.setProperty("vtscope.stderrTerminal", "false");
    assertThat(ProgressLine.forInputs(inputOf(1L << 30), true, new PrintWriter(new StringWriter())))
        .isSameAs(ReadProgress.NONE);
    System.setProperty("vtscope.stderrTerminal", "true");
    assertThat(
            ProgressLine.forInputs(inputOf(1L << 30), false, new PrintWriter(new StringWriter())))
        .as("--quiet or --format json")
        .isSameAs(ReadProgress.NONE);
    assertThat(ProgressLine.forInputs(inputOf(1 << 20), true, new PrintWriter(new StringWriter())))
        .isSameAs(ReadProgress.NONE);
  }

  @Test
  void aReadTooQuickToNoticeLeavesNothingBehind() throws Exception {
    System.setProperty("vtscope.stderrTerminal", "true");
    StringWriter err = new StringWriter();
    ReadProgress progress =
        ProgressLine.forInputs(inputOf(ProgressLine.MIN_BYTES), true, new PrintWriter(err));
    progress.chunkRead(ProgressLine.MIN_BYTES);
    progress.done();
    assertThat(err.toString()).isEmpty();
  }
}
