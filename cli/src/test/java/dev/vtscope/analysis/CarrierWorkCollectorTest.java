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
    static Figures of(CarrierWorkCollector c) {
      c.finish();
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
   * the whole recording as one shuffled chunk.
   */
  @RepeatedTest(20)
  void chunksMergedInOrderGiveTheRunsOfOnePass() {
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
    for (int i = 0; i < chunks.size(); i++) {
      CarrierWorkCollector chunk = new CarrierWorkCollector();
      chunk.chunk(starts.get(i));
      java.util.Collections.shuffle(chunks.get(i), random);
      chunks.get(i).forEach(chunk::sample);
      merged.merge(chunk);
    }
    assertThat(Figures.of(merged)).isEqualTo(Figures.of(whole));
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
    first.merge(second);
    Figures f = Figures.of(first);
    assertThat(f.runs()).isEqualTo(1);
    assertThat(f.longest()).isEqualTo(190 * MS);
    assertThat(first.runSites.sites(grouping()).get(0).durations().count()).isEqualTo(1);
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
