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
}
