package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.JvmFacts;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the chunks of one input are grouped by the JVM that wrote them. */
class ChunksByJvmTest {

  private static ChunkHeader.Identity chunk(long start) {
    return new ChunkHeader.Identity(start, 10, 100 + start, 50, 60);
  }

  private static JvmFacts jvm(long pid, long startMillis) {
    return new JvmFacts("VM", "21", "21", 21, startMillis * 1_000_000L + 123, pid);
  }

  @Test
  void oneJvmOrNoneIsOneGroup() {
    Set<ChunkHeader.Identity> chunks = Set.of(chunk(1), chunk(2), chunk(3));
    assertThat(Analyzer.chunksByJvm(chunks, Map.of())).containsExactly(chunks);
    Map<ChunkHeader.Identity, JvmFacts> named = new HashMap<>();
    chunks.forEach(c -> named.put(c, jvm(42, 1000)));
    assertThat(Analyzer.chunksByJvm(chunks, named)).containsExactly(chunks);
  }

  @Test
  void jvmsAreOrderedByTheirFirstChunkAndUnnamedChunksGoWithTheOneBefore() {
    Map<ChunkHeader.Identity, JvmFacts> named = new HashMap<>();
    named.put(chunk(20), jvm(7, 2000)); // the second JVM, whose second chunk names none
    named.put(chunk(10), jvm(7, 1000)); // same pid, an earlier start: another JVM
    named.put(chunk(12), jvm(7, 1000));
    Set<ChunkHeader.Identity> chunks = Set.of(chunk(5), chunk(10), chunk(12), chunk(20), chunk(25));
    List<Set<ChunkHeader.Identity>> groups = Analyzer.chunksByJvm(chunks, named);
    assertThat(groups)
        .containsExactly(
            Set.of(chunk(5), chunk(10), chunk(12)), // chunk 5, before any, goes with the first
            Set.of(chunk(20), chunk(25)));
  }

  @Test
  void aStartKnownToTheMillisecondIsOneJvmWhateverItsNanoseconds() {
    Map<ChunkHeader.Identity, JvmFacts> named = new HashMap<>();
    named.put(chunk(1), jvm(3, 1000));
    named.put(chunk(2), new JvmFacts("VM", "21", "21", 21, 1000 * 1_000_000L + 999_999, 3));
    assertThat(Analyzer.chunksByJvm(Set.of(chunk(1), chunk(2)), named)).hasSize(1);
  }
}
