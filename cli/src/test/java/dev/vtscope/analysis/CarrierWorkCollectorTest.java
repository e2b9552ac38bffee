package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.CpuSampleEvent;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** Runs of samples come out the same whether a recording is collected whole or chunk by chunk. */
class CarrierWorkCollectorTest {

  private static final long MS = 1_000_000L;

  private static final RecordedStack WORK =
      new RecordedStack(
          List.of(
              new Frame(
                  "app.Work",
                  "compute",
                  "()V",
                  12,
                  3,
                  "JIT compiled",
                  0,
                  Frame.ClassLoaderKind.APPLICATION)),
          false);

  /** Figures of a collector, to compare. */
  private record Figures(long samples, long runs, long longRuns, long longTotal, long longest) {
    static Figures of(CarrierWorkCollector collected) {
      CarrierWorkCollector c = collected.finished();
      return new Figures(c.samples, c.runs, c.longRuns, c.longRunNanos, c.longestRunNanos);
    }
  }

  /** Samples every 10 ms of a few threads, with pauses: runs of every length. */
  private static List<CpuSampleEvent> samples(Random random) {
    List<CpuSampleEvent> events = new ArrayList<>();
    for (long at = 0; at < 2_000 * MS; at += 10 * MS) {
      for (long thread = 1; thread <= 4; thread++) {
        if (random.nextInt(10) < 7) {
          events.add(new CpuSampleEvent(at + thread, thread, false, WORK));
        }
      }
    }
    return events;
  }

  /**
   * A chunk does not hold its samples in time order: each chunk's samples are given shuffled, and
   * the whole recording as one shuffled chunk. The chunks are merged in a random order, in two
   * halves merged last, and each chunk's collector is merged twice: merging leaves it as it was.
   */
  @RepeatedTest(20)
  void chunksMergedInAnyOrderGiveTheRunsOfOnePass() {
    Random random = new Random();
    List<CpuSampleEvent> events = samples(random);
    CarrierWorkCollector whole = new CarrierWorkCollector();
    whole.chunk(0);
    List<CpuSampleEvent> shuffled = new ArrayList<>(events);
    java.util.Collections.shuffle(shuffled, random);
    shuffled.forEach(whole::sample);

    CarrierWorkCollector merged = new CarrierWorkCollector();
    List<List<CpuSampleEvent>> chunks = new ArrayList<>();
    List<Long> starts = new ArrayList<>();
    long next = (50 + random.nextInt(400)) * MS;
    chunks.add(new ArrayList<>());
    starts.add(0L);
    for (CpuSampleEvent e : events) {
      while (e.startNanos() >= next) {
        chunks.add(new ArrayList<>());
        starts.add(next);
        next += (50 + random.nextInt(400)) * MS;
      }
      chunks.get(chunks.size() - 1).add(e);
    }
    List<CarrierWorkCollector> collected = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      CarrierWorkCollector chunk = new CarrierWorkCollector();
      chunk.chunk(starts.get(i));
      java.util.Collections.shuffle(chunks.get(i), random);
      chunks.get(i).forEach(chunk::sample);
      collected.add(chunk);
      merged.merge(chunk);
    }
    Figures expected = Figures.of(whole);
    assertThat(Figures.of(merged)).isEqualTo(expected);
    java.util.Collections.shuffle(collected, random);
    CarrierWorkCollector left = new CarrierWorkCollector();
    CarrierWorkCollector right = new CarrierWorkCollector();
    for (int i = 0; i < collected.size(); i++) {
      (i % 2 == 0 ? left : right).merge(collected.get(i));
    }
    right.merge(left);
    assertThat(Figures.of(right)).as("merged in a random order").isEqualTo(expected);
    assertThat(Figures.of(merged)).as("merged again").isEqualTo(expected);
  }

  @Test
  void aRunAcrossAChunkBoundaryIsOneRun() {
    CarrierWorkCollector first = new CarrierWorkCollector();
    first.chunk(0);
    CarrierWorkCollector second = new CarrierWorkCollector();
    second.chunk(100 * MS);
    for (long at = 0; at <= 190 * MS; at += 10 * MS) {
      (at < 100 * MS ? first : second).sample(new CpuSampleEvent(at, 7, false, WORK));
    }
    second.merge(first); // the later chunk first: the order does not matter
    Figures f = Figures.of(second);
    assertThat(f.runs()).isEqualTo(1);
    assertThat(f.longest()).isEqualTo(190 * MS);
    assertThat(second.finished().runSites.sites(grouping()).get(0).durations().count())
        .isEqualTo(1);
  }

  @Test
  void samplesFurtherApartThanTheGapAreSeparateRuns() {
    CarrierWorkCollector c = new CarrierWorkCollector();
    c.chunk(0);
    for (long at : new long[] {0, 10, 20, 30, 40, 50, 100, 110}) {
      c.sample(new CpuSampleEvent(at * MS, 1, false, WORK));
    }
    Figures f = Figures.of(c);
    assertThat(f.runs()).isEqualTo(2);
    assertThat(f.longRuns()).isEqualTo(1);
    assertThat(f.longest()).isEqualTo(50 * MS);
  }

  private static SiteCollector.Grouping grouping() {
    return new SiteCollector.Grouping() {
      @Override
      public String key(
          RecordedStack stack, String reason, dev.vtscope.attribution.Attribution attribution) {
        return reason;
      }

      @Override
      public dev.vtscope.attribution.Attribution attribution(
          RecordedStack stack, String reason, String monitorClass) {
        return null;
      }
    };
  }
}
