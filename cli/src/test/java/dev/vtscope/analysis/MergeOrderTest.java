package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.ChunkedListener;
import dev.vtscope.recording.JfrFileReader;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.testing.DeepStacksProgram;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A recording's chunks, each reduced on its own to an immutable summary by vtscope's reader, merge
 * to the same analysis in any order and grouping, and to the analysis of one builder that the JDK's
 * reader fed every event in order: what parallel chunks, parallel files and live watching rely on.
 */
class MergeOrderTest {

  @TempDir static Path dir;

  static Stream<Path> recordings() throws Exception {
    Path samples = TestRecordings.repoRoot().resolve("samples");
    Path several = dir.resolve("several.jfr");
    try (OutputStream out = Files.newOutputStream(several)) {
      for (String s :
          List.of(
              "jdk21/pinning-synchronized.jfr",
              "jdk21/submit-failed.jfr",
              "jdk21/connection-pool-wait-notify.jfr",
              "jdk21/pinning-synchronized.jfr")) {
        Files.copy(samples.resolve(s), out);
      }
    }
    return Stream.of(
        several,
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), List.of(), DeepStacksProgram.class.getName(), "4"));
  }

  @ParameterizedTest
  @MethodSource("recordings")
  void chunksMergeToTheSameAnalysisInAnyOrder(Path recording) throws Exception {
    List<SummaryBuilder> chunks = new ArrayList<>();
    ChunkedListener perChunk =
        new ChunkedListener() {
          @Override
          public RecordingListener newChunk() {
            return new SummaryBuilder();
          }

          @Override
          public void merge(RecordingListener chunk) {
            chunks.add((SummaryBuilder) chunk);
          }
        };
    try (JfrFileReader reader = new JfrFileReader()) {
      reader.read(recording, ChunkScanner.scan(recording), perChunk);
    }
    // The JDK's reader hands every event to one collector, one at a time, in recording order.
    SummaryBuilder sequential = new SummaryBuilder();
    ReaderKind.JDK.create().read(recording, ChunkScanner.scan(recording), sequential);
    assertThat(chunks).as("chunks of " + recording).hasSizeGreaterThan(2);
    Analyzer analyzer = new Analyzer(new JfrFileReader(), GroupBy.CULPRIT);
    String expected = Reports.json(analyzer.analyzeCollected("r", sequential));

    List<RecordingSummary> summaries = chunks.stream().map(RecordingSummary::copyOf).toList();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      order.add(i);
    }
    Random random = new Random(42);
    for (int attempt = 0; attempt < 6; attempt++) {
      if (attempt == 1) {
        Collections.reverse(order);
      } else if (attempt > 1) {
        Collections.shuffle(order, random);
      }
      // each chunk an immutable summary, merged in this order: two halves first (associativity),
      // then the later half with the earlier one; every chunk's summary is merged again in the
      // next attempt, so a merge that changed its inputs would show
      RecordingSummary left = null;
      RecordingSummary right = null;
      for (int k = 0; k < order.size(); k++) {
        RecordingSummary chunk = summaries.get(order.get(k));
        if (k % 2 == 0) {
          left = left == null ? chunk : left.merge(chunk);
        } else {
          right = right == null ? chunk : right.merge(chunk);
        }
      }
      RecordingSummary all = right.merge(left);
      assertThat(all.chunks()).isEqualTo(chunks.size());
      assertThat(Reports.json(analyzer.analyze("r", all)))
          .as("merged in the order " + order)
          .isEqualTo(expected);
    }
  }
}
