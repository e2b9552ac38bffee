package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The scenarios without pinning measure what their articles are about; each runs in a child JVM on
 * the JDK running the tests, with small parameters.
 */
class WorkloadFiguresTest {

  private static JsonNode figures(String... args) throws Exception {
    String[] withJson = java.util.Arrays.copyOf(args, args.length + 1);
    withJson[args.length] = "--json";
    TestRecordings.Run run = TestRecordings.runWorkload(TestRecordings.currentJava(), withJson);
    assertThat(run.exitCode()).as(run.output()).isZero();
    String json = run.output().lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow();
    return new ObjectMapper().readTree(json).get("figures");
  }

  @Test
  void sleepingTasksSleepTogetherOnVirtualThreadsAndInBatchesOnAPool() throws Exception {
    JsonNode virtual = figures("sleep-fanout", "--tasks", "2000", "--sleep", "200ms");
    JsonNode pool =
        figures(
            "sleep-fanout",
            "--variant",
            "fixed-pool",
            "--tasks",
            "2000",
            "--pool",
            "100",
            "--sleep",
            "50ms");
    // what the executors allow, whatever the machine's speed: a pool sleeps at most its size at
    // once, in batches that take at least the lower bound; virtual threads sleep together (more
    // than a pool of 100 at once: 100 tasks start well within one 200 ms sleep)
    assertThat(pool.get("peakSleeping").asInt()).isBetween(1, 100);
    assertThat(pool.get("lowerBoundMillis").asLong()).isEqualTo(1000);
    assertThat(pool.get("wallMillis").asLong())
        .isGreaterThanOrEqualTo(pool.get("lowerBoundMillis").asLong());
    assertThat(virtual.get("peakSleeping").asInt()).isGreaterThan(100);
  }

  @Test
  void aThreadLocalCacheBuildsOneClientPerVirtualThread() throws Exception {
    assertThat(figures("threadlocal-trap", "--tasks", "1000").get("clientsCreated").asInt())
        .isEqualTo(1000);
    assertThat(
            figures(
                    "threadlocal-trap",
                    "--variant",
                    "fixed-pool",
                    "--tasks",
                    "1000",
                    "--pool",
                    "50")
                .get("clientsCreated")
                .asInt())
        .isLessThanOrEqualTo(50);
  }

  @Test
  void aSemaphoreBoundsTheCallsNotTheThreads() throws Exception {
    JsonNode limited =
        figures("semaphore-limit", "--tasks", "300", "--permits", "5", "--call", "5ms");
    JsonNode unlimited =
        figures("semaphore-limit", "--variant", "unlimited", "--tasks", "300", "--call", "5ms");
    assertThat(limited.get("highestConcurrentCalls").asInt()).isEqualTo(5);
    assertThat(unlimited.get("highestConcurrentCalls").asInt()).isGreaterThan(5);
  }

  @Test
  void cpuBoundWorkCountsTheSamePrimesEitherWayAndNeverPins() throws Exception {
    JsonNode virtual = figures("cpu-bound", "--tasks", "4", "--limit", "50000");
    JsonNode platform =
        figures("cpu-bound", "--variant", "platform", "--tasks", "4", "--limit", "50000");
    assertThat(virtual.get("primesCounted").asLong())
        .isEqualTo(platform.get("primesCounted").asLong())
        .isEqualTo(4 * 5133);
    Path recording =
        TestRecordings.recordWorkload(
            TestRecordings.currentJava(), "0ms", "cpu-bound", "--tasks", "4", "--limit", "50000");
    Analysis a = Reports.analyze("cpu.jfr", recording, GroupBy.CULPRIT);
    // The work never pins. The JDK itself may, for well under a millisecond, while a task's first
    // call links a method handle under contention (FutureTask.set into MethodType's intern table,
    // seen once on JDK 25): such a pin has no frame of the workload on its stack.
    assertThat(a.pinned().sites())
        .as("pins with a frame of the workload")
        .noneMatch(
            site ->
                site.stack().frames().stream()
                    .anyMatch(f -> f.className().startsWith("dev.vtscope.workloads.")));
    assertThat(a.submitFailed().events()).isZero();
  }

  @Test
  void everyMetricUpdateIsCountedWithEitherMap() throws Exception {
    for (String variant : new String[] {"synchronized", "concurrent"}) {
      JsonNode f =
          figures("metrics-map", "--variant", variant, "--tasks", "500", "--updates", "100");
      assertThat(f.get("counted").asLong()).as(variant).isEqualTo(50_000);
    }
  }

  @Test
  void parkedThreadsStopAtTheirCapAndReportTheirMemory() throws Exception {
    JsonNode f = figures("parked-threads", "--max-threads", "20000");
    assertThat(f.get("parkedThreads").asInt()).isEqualTo(20_000);
    assertThat(f.get("stoppedBy").asText()).isEqualTo("max-threads");
    assertThat(f.get("bytesPerThread").asLong()).isPositive();
  }

  @Test
  void socketRoundTripsAreAllAnsweredOnLoopback() throws Exception {
    for (String variant :
        new String[] {"virtual", "platform", "nonblocking-virtual", "nonblocking-platform"}) {
      JsonNode f =
          figures("socket-roundtrip", "--variant", variant, "--senders", "4", "--requests", "200");
      assertThat(f.get("roundTrips").asLong()).as(variant).isEqualTo(800);
      assertThat(f.get("meanMicros").asDouble()).as(variant).isPositive();
    }
  }
}
