package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.ThreadDumpEvent;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What the carriers held at the end of a recording, from its last thread dumps: the real dumps of
 * {@code src/test/resources/threaddumps} as a {@code jdk.ThreadDump} holds them (JDK 25's {@code
 * poller-deadlock} prints the readers' frames, JDK 21's {@code pinning-per-task} only which virtual
 * thread each carrier carries), and the two latest dumps a summary keeps.
 */
class CarriersAtEndTest {

  private static final long SECOND = 1_000_000_000L;

  private static String text(String name) throws IOException {
    try (InputStream in = CarriersAtEndTest.class.getResourceAsStream("/threaddumps/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static <T> T withAttributor(String javaVersion, int feature, Function<Attributor, T> f) {
    try (ClassBytesSource classes =
        ClassBytesSource.of(
            List.of(),
            List.of(
                new ClassBytesSource.RecordedClassPath(
                    TestRecordings.workloadsClassPath(), null, null)),
            javaVersion,
            feature,
            List::of)) {
      return f.apply(new Attributor(classes, new FrameOwnership(List.of())));
    }
  }

  @Test
  void jdk25DumpNamesThePinnedReadersAndTheirHolder() throws IOException {
    ThreadDumpEvent dump = new ThreadDumpEvent(10 * SECOND, text("jdk25-poller-deadlock.txt"));
    CarriersAtEnd end =
        withAttributor("25", 25, a -> CarriersAtEnd.of(dump, null, new RecentSamples(), a, 0));
    assertThat(end.atNanos()).isEqualTo(10 * SECOND);
    assertThat(end.carriers()).isEqualTo(2);
    assertThat(end.carrying()).isEqualTo(2);
    assertThat(end.stacksPrinted()).isTrue();
    assertThat(end.held()).isEqualTo(2);
    assertThat(end.beforeNanos()).isEqualTo(-1);
    assertThat(end.pinned()).extracting(PinnedNow::tid).containsExactlyInAnyOrder(29L, 30L);
    assertThat(end.pinned()).extracting(PinnedNow::carrier).containsExactlyInAnyOrder(23L, 26L);
    for (PinnedNow p : end.pinned()) {
      assertThat(p.attribution().culprit().qualifiedMethod())
          .isEqualTo("dev.vtscope.workloads.PollerDeadlock.readInCallback");
      assertThat(p.attribution().culprit().kind()).isEqualTo(CulpritKind.FOREIGN_FUNCTION);
    }
  }

  @Test
  void jdk21DumpTellsHeldCarriersOnlyAgainstTheDumpBefore() throws IOException {
    String text = text("jdk21-pinning-per-task.txt");
    ThreadDumpEvent last = new ThreadDumpEvent(10 * SECOND, text);
    // one dump: carrying, nothing more; running or blocked, it cannot tell
    CarriersAtEnd alone =
        withAttributor("21", 21, a -> CarriersAtEnd.of(last, null, new RecentSamples(), a, 0));
    assertThat(alone.carrying()).isEqualTo(2);
    assertThat(alone.stacksPrinted()).isFalse();
    assertThat(alone.pinned()).isEmpty();
    assertThat(alone.held()).isZero();
    assertThat(alone.undetermined()).isEqualTo(2);
    // the same carriers with the same virtual threads a second earlier, no CPU used since: held
    ThreadDumpEvent before = new ThreadDumpEvent(9 * SECOND, text);
    CarriersAtEnd unchanged =
        withAttributor("21", 21, a -> CarriersAtEnd.of(last, before, new RecentSamples(), a, 0));
    assertThat(unchanged.unchanged()).isEqualTo(2);
    assertThat(unchanged.held()).isEqualTo(2);
    assertThat(unchanged.undetermined()).isZero();
    assertThat(unchanged.beforeNanos()).isEqualTo(9 * SECOND);
    // one carrier ran 0.9 s of the second between: busy, not held, and that is known
    ThreadDumpEvent busy =
        new ThreadDumpEvent(10 * SECOND, text.replace("cpu=2.74ms", "cpu=902.74ms"));
    CarriersAtEnd oneBusy =
        withAttributor("21", 21, a -> CarriersAtEnd.of(busy, before, new RecentSamples(), a, 0));
    assertThat(oneBusy.unchanged()).isEqualTo(1);
    assertThat(oneBusy.running()).isEqualTo(1);
    assertThat(oneBusy.undetermined()).isZero();
    // a host that gave the JVM little CPU: no CPU used, but JFR sampled the virtual thread (#18,
    // on worker-1) running since the dump before: it ran
    RecentSamples sampled = new RecentSamples();
    sampled.sample(18, 9 * SECOND + 500_000_000L);
    sampled.sample(21, 8 * SECOND); // worker-2's, before the dump before: says nothing
    sampled.seal();
    CarriersAtEnd starved =
        withAttributor("21", 21, a -> CarriersAtEnd.of(last, before, sampled, a, 0));
    assertThat(starved.unchanged()).isEqualTo(1);
    assertThat(starved.running()).isEqualTo(1);
    // another virtual thread on the same carrier: not the same hold
    ThreadDumpEvent other =
        new ThreadDumpEvent(
            10 * SECOND,
            text.replace("Carrying virtual thread #18", "Carrying virtual thread #99"));
    CarriersAtEnd another =
        withAttributor("21", 21, a -> CarriersAtEnd.of(other, before, new RecentSamples(), a, 0));
    assertThat(another.unchanged()).isEqualTo(1);
    assertThat(another.undetermined()).isEqualTo(1);
  }

  @Test
  void aDumpWithNoCarrierHoldsNothing() {
    ThreadDumpEvent dump =
        new ThreadDumpEvent(
            SECOND,
            "\"main\" #1 [5] prio=5 os_prio=0 cpu=10.00ms elapsed=1.00s tid=0x1 nid=5 runnable\n"
                + "   java.lang.Thread.State: RUNNABLE\n"
                + "\tat app.Main.main(Main.java:3)\n");
    CarriersAtEnd end =
        withAttributor("25", 25, a -> CarriersAtEnd.of(dump, null, new RecentSamples(), a, 0));
    assertThat(end.carriers()).isZero();
    assertThat(end.carrying()).isZero();
    assertThat(end.held()).isZero();
  }

  @Test
  void ofSeveralRecordingsTheOneHeldMostAndThenTheLatest() {
    CarriersAtEnd held = new CarriersAtEnd(5, 2, 2, false, List.of(), 2, 0, 1, 0, 0);
    CarriersAtEnd later = new CarriersAtEnd(9, 2, 1, false, List.of(), 1, 0, 1, 0, 1);
    CarriersAtEnd laterStill = new CarriersAtEnd(12, 2, 1, false, List.of(), 1, 0, 1, 0, 2);
    assertThat(CarriersAtEnd.worse(held, later)).isSameAs(held);
    assertThat(CarriersAtEnd.worse(later, held)).isSameAs(held);
    assertThat(CarriersAtEnd.worse(later, laterStill)).isSameAs(laterStill);
    assertThat(CarriersAtEnd.worse(laterStill, later)).isSameAs(laterStill);
    assertThat(CarriersAtEnd.worse(null, later)).isSameAs(later);
    assertThat(CarriersAtEnd.worse(later, null)).isSameAs(later);
  }

  /**
   * Whatever the order dumps arrive in and however chunk summaries are grouped, a summary keeps the
   * two latest, and a dump repeated by a duplicated chunk counts once.
   */
  @Test
  void aSummaryKeepsTheTwoLatestDumpsInAnyOrder() {
    List<ThreadDumpEvent> dumps = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      dumps.add(new ThreadDumpEvent(i * SECOND, "dump " + i));
    }
    dumps.add(new ThreadDumpEvent(5 * SECOND, "dump 5")); // a duplicated chunk's
    dumps.add(new ThreadDumpEvent(5 * SECOND, "another dump at the same time"));
    ThreadDumpEvent latest = new ThreadDumpEvent(5 * SECOND, "dump 5");
    ThreadDumpEvent beforeIt = new ThreadDumpEvent(5 * SECOND, "another dump at the same time");
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<ThreadDumpEvent> order = new ArrayList<>(dumps);
      Collections.shuffle(order, random);
      // spread over a few chunk builders, merged in a random order
      List<SummaryBuilder> chunks = new ArrayList<>();
      int builders = 1 + random.nextInt(4);
      for (int b = 0; b < builders; b++) {
        SummaryBuilder chunk = new SummaryBuilder();
        chunk.chunk(new ChunkHeader(b, 0, 2, 0, 0, 0, 0, b, 0, 0));
        chunks.add(chunk);
      }
      for (ThreadDumpEvent d : order) {
        chunks.get(random.nextInt(builders)).threadDump(d);
      }
      Collections.shuffle(chunks, random);
      SummaryBuilder total = new SummaryBuilder();
      chunks.forEach(total::merge);
      assertThat(total.lastDump).isEqualTo(latest);
      assertThat(total.dumpBefore).isEqualTo(beforeIt);
    }
  }

  /** The latest samples are kept whatever the order they arrive and merge in, and no more. */
  @Test
  void recentSamplesKeepTheLatestInAnyOrder() {
    int threads = RecentSamples.LIMIT * 3;
    Random random = new Random(11);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      order.add(i);
    }
    for (int round = 0; round < 5; round++) {
      Collections.shuffle(order, random);
      RecentSamples a = new RecentSamples();
      RecentSamples b = new RecentSamples();
      for (int id : order) {
        // thread i was sampled at i seconds, and once earlier
        (random.nextBoolean() ? a : b).sample(id, id * SECOND);
        (random.nextBoolean() ? a : b).sample(id, id * SECOND - 1);
      }
      RecentSamples merged = new RecentSamples();
      boolean aFirst = random.nextBoolean();
      merged.addAll(aFirst ? a : b);
      merged.addAll(aFirst ? b : a);
      merged.seal();
      // the latest LIMIT threads are known, the others forgotten
      int last = threads - 1;
      assertThat(merged.sampledAfter(last, last * SECOND - 1)).isTrue();
      assertThat(merged.sampledAfter(last, last * SECOND)).isFalse();
      int oldestKept = threads - RecentSamples.LIMIT;
      assertThat(merged.sampledAfter(oldestKept, 0)).isTrue();
      assertThat(merged.sampledAfter(oldestKept - 1, 0)).isFalse();
    }
  }

  @Test
  void theLastDumpsDeadlocksAreStuckSinceTheDumpBeforeWhenBothShowThem() throws IOException {
    String text = text("jdk25/class-init-all-carriers/thread-print.txt");
    ThreadDumpEvent last = new ThreadDumpEvent(10 * SECOND, text);
    ThreadDumpEvent before = new ThreadDumpEvent(7 * SECOND, text);

    CarriersAtEnd alone =
        withAttributor("25", 25, a -> CarriersAtEnd.of(last, null, new RecentSamples(), a, 0));
    CarriersAtEnd twice =
        withAttributor("25", 25, a -> CarriersAtEnd.of(last, before, new RecentSamples(), a, 0));

    // both carriers wait for Gate, whose initialiser, a platform thread, waits on a latch
    assertThat(alone.deadlocks())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(dev.vtscope.waits.Deadlock.Kind.CLASS_INIT_STARVATION);
              assertThat(d.stuck()).isFalse();
              assertThat(d.threads()).extracting(n -> n.name()).contains("pt-init");
            });
    assertThat(twice.deadlocks())
        .singleElement()
        .satisfies(d -> assertThat(d.stuckAtLeast()).isEqualTo(java.time.Duration.ofSeconds(3)));
    assertThat(twice.withInput(3).deadlocks()).isEqualTo(twice.deadlocks());
  }

  @Test
  void aRecordingsPlatformDeadlocksAreProven() throws IOException {
    ThreadDumpEvent last =
        new ThreadDumpEvent(10 * SECOND, text("jdk21.0.8/platform-cycle/thread-print.txt"));

    CarriersAtEnd end =
        withAttributor("21", 21, a -> CarriersAtEnd.of(last, null, new RecentSamples(), a, 0));

    assertThat(end.deadlocks()).hasSize(2).allSatisfy(d -> assertThat(d.proven()).isTrue());
  }
}
