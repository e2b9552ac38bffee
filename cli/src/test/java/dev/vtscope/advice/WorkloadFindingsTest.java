package dev.vtscope.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast workloads recorded on JDK 21 and on the JDK running the tests, with the finding each is
 * documented to produce (docs/scenarios): the first finding's id, or {@code healthy} when nothing
 * of low severity or more may be found.
 */
class WorkloadFindingsTest {

  static Stream<Arguments> workloads() {
    boolean modern = Runtime.version().feature() >= 24;
    return Stream.of(
        // JDK 21: synchronized pins per task; on 24+ it does not.
        Arguments.of(
            "21",
            "monitor-pinning",
            List.of("pinning-per-task", "--tasks", "20", "--hold", "20ms")),
        Arguments.of(
            "current",
            modern ? "healthy" : "monitor-pinning",
            List.of("pinning-per-task", "--tasks", "20", "--hold", "20ms")),
        Arguments.of(
            "21",
            "healthy",
            List.of(
                "pinning-per-task",
                "--variant",
                "reentrant-lock",
                "--tasks",
                "20",
                "--hold",
                "20ms")),
        Arguments.of(
            "21", "class-init-pinning", List.of("class-init", "--threads", "4", "--init", "50ms")),
        Arguments.of(
            "current",
            "class-init-pinning",
            List.of("class-init", "--threads", "4", "--init", "50ms")),
        Arguments.of(
            "21",
            "submit-failed",
            List.of("submit-failed", "--variant", "bounded", "--threads", "20")),
        Arguments.of("current", "submit-failed", List.of("submit-failed", "--threads", "20")),
        Arguments.of("21", "healthy", List.of("sleep-fanout", "--tasks", "500", "--sleep", "20ms")),
        Arguments.of(
            "current", "healthy", List.of("sleep-fanout", "--tasks", "500", "--sleep", "20ms")),
        Arguments.of("21", "healthy", List.of("cpu-bound", "--tasks", "4", "--limit", "50000")),
        Arguments.of("current", "healthy", List.of("semaphore-limit")),
        Arguments.of("21", "healthy", List.of("threadlocal-trap")),
        Arguments.of(
            "current", "healthy", List.of("metrics-map", "--tasks", "500", "--updates", "50")),
        Arguments.of("21", "healthy", List.of("socket-roundtrip", "--requests", "500")),
        Arguments.of(
            "21",
            "healthy",
            List.of("socket-roundtrip", "--variant", "nonblocking-virtual", "--requests", "500")),
        Arguments.of(
            "current",
            "healthy",
            List.of("socket-roundtrip", "--senders", "4", "--requests", "200")),
        Arguments.of("current", "healthy", List.of("parked-threads", "--max-threads", "5000")),
        // Carriers kept busy without pinning, and the fixed twins.
        Arguments.of(
            "current",
            "carrier-monopoly",
            List.of("carrier-monopoly", "--variant", "cpu", "--tasks", "4", "--work", "200ms")),
        Arguments.of(
            "21",
            "carrier-monopoly",
            List.of("carrier-monopoly", "--variant", "spin", "--tasks", "4", "--work", "200ms")),
        Arguments.of(
            "current",
            "healthy",
            List.of(
                "carrier-monopoly",
                "--variant",
                "cpu-offloaded",
                "--tasks",
                "4",
                "--work",
                "200ms")),
        Arguments.of(
            "21",
            "file-io-carriers",
            List.of("carrier-monopoly", "--variant", "file-io", "--work", "200ms")));
  }

  /**
   * Every carrier pinned in an upcall's socket read, the read pollers unable to run: JFR sees the
   * pins only when the workload's timeout ends them; the twin reads first. JDK 22+ only (the
   * foreign-function API).
   */
  static Stream<Arguments> foreignWorkloads() {
    if (Runtime.version().feature() < 22) {
      return Stream.of();
    }
    return Stream.of(
        Arguments.of("current", "native-pinning", List.of("poller-deadlock", "--timeout", "2s")),
        Arguments.of("current", "healthy", List.of("poller-deadlock", "--variant", "read-first")));
  }

  @ParameterizedTest(name = "JDK {0}: {2} -> {1}")
  @MethodSource({"workloads", "foreignWorkloads"})
  void eachWorkloadGivesItsDocumentedFinding(String jdk, String expected, List<String> args)
      throws Exception {
    Path java = jdk.equals("21") ? TestRecordings.jdk21Java() : TestRecordings.currentJava();
    Path recording =
        TestRecordings.recordWorkload(
            java,
            List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            List.of(),
            args.toArray(String[]::new));
    Analysis a = Reports.analyze(args.get(0) + ".jfr", recording, GroupBy.CULPRIT);
    List<Finding> findings = Advisor.standard().advise(a).findings();
    if (expected.equals("healthy")) {
      // Nothing the scenario is about: at most a low finding, or one of the traces a JDK or a busy
      // machine leaves in any short recording (loadTrace says which).
      assertThat(findings)
          .as("findings of %s on JDK %s", args, a.feature())
          .allSatisfy(
              f ->
                  assertThat(
                          f.severity().compareTo(Severity.LOW) <= 0
                              || expectedAside(f, a, args, recording))
                      .as(Words.title(f))
                      .isTrue());
      assertThat(findings.stream().filter(f -> !expectedAside(f, a, args, recording)))
          .as("findings of %s on JDK %s", args, a.feature())
          .extracting(Finding::id)
          .doesNotContain(
              "monitor-pinning",
              "monitor-contention",
              "native-pinning",
              "carrier-starvation",
              "carrier-compensation",
              "submit-failed");
      assertThat(
              findings.stream()
                  .filter(
                      f -> f.severity() == Severity.LOW && !expectedAside(f, a, args, recording)))
          .extracting(Finding::id)
          .allSatisfy(
              id ->
                  assertThat(id)
                      .isIn("unexplained-pinning", "class-init-pinning", "class-loading-pinning"));
    } else if (expected.equals("carrier-monopoly")
        && !findings.get(0).id().equals(expected)
        && samplerPaused(recording)) {
      // A run is seen as execution samples at most 45 ms apart. On a machine whose CPUs are all
      // taken, JFR's sampler thread waits its turn too, and a recording whose sampler paused
      // longer than that cannot show a run that long: seen with a busy loop on each of 2 CPUs.
      // What the recording can still say holds: nothing else is wrong.
      assertThat(findings)
          .as("findings of %s on JDK %s, its sampler paused", args, a.feature())
          .allSatisfy(f -> assertThat(f.severity().compareTo(Severity.LOW) <= 0).isTrue());
    } else {
      assertThat(findings.get(0).id())
          .as("first finding of %s on JDK %s", args, a.feature())
          .isEqualTo(expected);
    }
  }

  /**
   * Whether JFR took no execution sample of any thread for longer than a run's longest gap at some
   * point while samples were taken, as read by the JDK's own reader.
   */
  private static boolean samplerPaused(Path recording) throws java.io.IOException {
    List<java.time.Instant> samples = new java.util.ArrayList<>();
    for (jdk.jfr.consumer.RecordedEvent e :
        jdk.jfr.consumer.RecordingFile.readAllEvents(recording)) {
      if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
        samples.add(e.getStartTime());
      }
    }
    java.util.Collections.sort(samples);
    for (int i = 1; i < samples.size(); i++) {
      if (java.time.Duration.between(samples.get(i - 1), samples.get(i)).toMillis() > 45) {
        return true;
      }
    }
    return false;
  }

  /**
   * A finding a healthy workload may get beside what it is about: a trace of the machine's load
   * ({@link #loadTrace}), or what the workload documents: the synchronized metrics map is
   * contended, and on JDK 21-23 a virtual thread that waits to enter its monitor holds its carrier
   * (monitor enters, which a busy machine makes longer and more: two seen beside other builds). And
   * any carrier monopoly when the recording shows other processes keeping the CPUs busy: a thread
   * the operating system set aside for tens of milliseconds looks like one that ran that long (two
   * such runs seen beside two busy loops).
   */
  private static boolean expectedAside(Finding f, Analysis a, List<String> args, Path recording) {
    if (args.get(0).equals("metrics-map")
        && !args.contains("concurrent")
        && a.feature() <= 23
        && f.id().equals("monitor-contention")) {
      return true;
    }
    return loadTrace(f, a)
        || f.id().equals("carrier-monopoly") && TestRecordings.machineWasBusy(recording);
  }

  /**
   * A finding a healthy workload may still get, each seen in a suite run, and none of them about
   * what the workload does: JDK 25 writes a rare pin of a few ms with the reason "Native or VM
   * frame on stack" where no such frame is (one event: a medium unexplained-pinning finding in a
   * short recording, and right to be); a JDK loads a few classes on first use while pinned (a few
   * ms); and on a busy machine the operating system takes the CPU from a thread for tens of ms, so
   * one virtual thread runs on as long (one long run of carrier monopoly), or one waits that long
   * to enter a monitor whose holder is descheduled (one monitor enter on JDK 21-23, seen with the
   * load at 14 on 2 CPUs). Two of either is no longer a trace.
   */
  private static boolean loadTrace(Finding f, Analysis a) {
    return switch (f.id()) {
      case "unexplained-pinning" -> a.pinned().events() == 1;
      case "class-loading-pinning" -> a.pinned().totalNanos() < 20_000_000L;
      case "carrier-monopoly" -> longRuns(f) == 1;
      case "monitor-contention" -> evidence(f, "monitor enters") == 1;
      default -> false;
    };
  }

  private static long evidence(Finding f, String label) {
    return f.evidence().stream()
        .filter(e -> e.label().equals(label))
        .mapToLong(e -> e.value())
        .findFirst()
        .orElse(-1);
  }

  private static long longRuns(Finding f) {
    return f.evidence().stream()
        .filter(e -> e.label().equals("long runs"))
        .mapToLong(e -> e.value())
        .findFirst()
        .orElse(-1);
  }
}
