package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Distinct thread ids, counted exactly whatever their range, merged with and without an offset. */
class LongSetTest {

  private static long id(Random random) {
    return switch (random.nextInt(5)) {
      case 0 -> random.nextInt(1000); // platform threads
      case 1 -> 100_000 + random.nextInt(50_000); // virtual threads, near one another
      case 2 -> (1L << 32) - 1 - random.nextInt(10); // the top of the 32-bit range
      case 3 -> (1L << 32) + random.nextInt(10); // just above it
      default -> random.nextLong(); // anything, negative included
    };
  }

  @Test
  void countsDistinctIdsAndMergesThemAsASetWould() {
    Random random = new Random(11);
    for (long offset : new long[] {0, 1, (1L << 32) - 5, -7}) {
      LongSet a = new LongSet();
      LongSet b = new LongSet();
      Set<Long> oracleA = new HashSet<>();
      Set<Long> merged = new HashSet<>();
      for (int i = 0; i < 20_000; i++) {
        long x = id(random);
        a.add(x);
        oracleA.add(x);
        merged.add(x);
        long y = id(random);
        b.add(y);
        merged.add(y + offset);
      }
      assertThat(a.size()).isEqualTo(oracleA.size());
      a.addAll(b, offset);
      assertThat(a.size()).as("offset %d", offset).isEqualTo(merged.size());
    }
  }

  @Test
  void idsAddedInInterleavedRunsAndBetweenReadsAreCountedOnce() {
    // as a chunk's pins come: several carriers' runs of rising ids, interleaved, some repeated,
    // some at 2^31 and above (negative as ints), read now and then while ids are still added
    LongSet set = new LongSet();
    Set<Long> oracle = new HashSet<>();
    long[] next = {1_000, 500_000, (1L << 31) - 300, (1L << 32) - 2_000};
    Random random = new Random(5);
    for (int i = 0; i < 30_000; i++) {
      int run = random.nextInt(next.length);
      long id = random.nextInt(10) == 0 ? next[run] - random.nextInt(50) : next[run]++;
      set.add(id);
      oracle.add(id);
      if (i % 7_919 == 0) {
        assertThat(set.size()).as("after %d ids", i + 1).isEqualTo(oracle.size());
      }
    }
    assertThat(set.size()).isEqualTo(oracle.size());
    LongSet copy = new LongSet();
    copy.addAll(set, 0);
    assertThat(copy.size()).isEqualTo(oracle.size());
  }
}
