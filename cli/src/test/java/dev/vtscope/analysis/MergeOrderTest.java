package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.ChunkedListener;
import dev.vtscope.recording.JfrFileReader;
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
 * A recording's chunks, each collected on its own, merge to the same analysis in any order, and to
 * the analysis of one collector that took every event in order: what parallel chunks, parallel
 * files and, later, fleets of recordings rely on.
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
    List<InputCollector> chunks = new ArrayList<>();
    List<ChunkHeader> headers = new ArrayList<>();
    ChunkedListener perChunk =
        new ChunkedListener() {
          @Override
          public RecordingListener newChunk() {
            return new InputCollector();
          }

          @Override
          public void merge(RecordingListener chunk, ChunkHeader header) {
            chunks.add((InputCollector) chunk);
            headers.add(header);
          }
        };
    InputCollector sequential = new InputCollector();
    try (JfrFileReader reader = new JfrFileReader()) {
      reader.read(recording, ChunkScanner.scan(recording), perChunk);
      // the same events, one at a time, in recording order, into one collector
      reader.read(
          recording,
          ChunkScanner.scan(recording),
          new RecordingListener() {
            @Override
            public void chunk(ChunkHeader h) {
              sequential.chunk(h);
            }

            @Override
            public void pinned(dev.vtscope.recording.PinnedEvent e) {
              sequential.pinned(e);
            }

            @Override
            public void submitFailed(dev.vtscope.recording.SubmitFailedEvent e) {
              sequential.submitFailed(e);
            }

            @Override
            public void monitor(dev.vtscope.recording.MonitorEvent e) {
              sequential.monitor(e);
            }

            @Override
            public void threadStart(dev.vtscope.recording.ThreadStartEvent e) {
              sequential.threadStart(e);
            }

            @Override
            public void jvm(dev.vtscope.recording.JvmFacts f) {
              sequential.jvm(f);
            }

            @Override
            public void cpu(dev.vtscope.recording.CpuFacts f) {
              sequential.cpu(f);
            }

            @Override
            public void systemProperty(String key, String value) {
              sequential.systemProperty(key, value);
            }

            @Override
            public void setting(dev.vtscope.recording.EventSetting s) {
              sequential.setting(s);
            }

            @Override
            public void stackDepth(int depth) {
              sequential.stackDepth(depth);
            }
          });
    }
    assertThat(chunks).as("chunks of " + recording).hasSizeGreaterThan(2);
    Analyzer analyzer = new Analyzer(new JfrFileReader(), GroupBy.CULPRIT);
    String expected = Reports.json(analyzer.analyzeCollected("r", sequential));

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
      // merged in this order, two halves first (associativity), then together
      InputCollector left = new InputCollector();
      InputCollector right = new InputCollector();
      for (int k = 0; k < order.size(); k++) {
        int i = order.get(k);
        (k % 2 == 0 ? left : right).merge(chunks.get(i), headers.get(i));
      }
      InputCollector all = new InputCollector();
      all.merge(right, null);
      all.merge(left, null);
      assertThat(Reports.json(analyzer.analyzeCollected("r", all)))
          .as("merged in the order " + order)
          .isEqualTo(expected);
    }
  }
}
