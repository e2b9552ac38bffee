package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.live.AttachedJvm;
import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.ParkedCrowdProgram;
import dev.vtscope.testing.RunningWorkload;
import dev.vtscope.testing.TestRecordings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code vtscope watch} against workloads running in child JVMs of JDK 21 and of JDK 24+, as a pipe
 * sees it: one line per interval.
 */
class WatchCommandTest {

  private static final Pattern LINE =
      Pattern.compile("^ +\\d+s  pinned (\\d+) \\([^)]*\\), in all (\\d+) .*held (\\d+)/(\\d+).*");

  /** Any interval's line, also one written before the JVM's parallelism is known. */
  private static final Pattern INTERVAL = Pattern.compile("^ +\\d+s  pinned \\d+ .*");

  @TempDir Path dir;

  /** The holder each workload's pins name, by its JDK. */
  private static String holder(Path java) throws Exception {
    return RunningWorkload.feature(java) >= 22
        ? "ForeignCallPinning.sortNatively"
        : "SharedLockPinning.withMonitor";
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void showsPinsPerIntervalAndKeepsTheRecording(Path java) throws Exception {
    try (RunningWorkload target = RunningWorkload.pinning(java, List.of())) {
      Path out = dir.resolve("watched.jfr");
      Cli.Result result =
          Cli.run(
              "watch",
              "--pid",
              String.valueOf(target.pid()),
              "--interval",
              "1s",
              "--duration",
              "6s",
              "--pinned-threshold",
              "0ms",
              "--out",
              out.toString());
      assertThat(result.exitCode()).as(result.err()).isZero();
      List<String> intervals = result.out().lines().filter(l -> LINE.matcher(l).matches()).toList();
      assertThat(intervals).as(result.out()).hasSizeGreaterThanOrEqualTo(4);
      long pinnedInIntervals = 0;
      long lastTotal = 0;
      for (String line : intervals) {
        Matcher m = LINE.matcher(line);
        assertThat(m.matches()).isTrue();
        pinnedInIntervals += Long.parseLong(m.group(1));
        long total = Long.parseLong(m.group(2));
        assertThat(total).as("totals only grow").isGreaterThanOrEqualTo(lastTotal);
        lastTotal = total;
        assertThat(Integer.parseInt(m.group(3)))
            .as("held at once, against parallelism, in %s", result.out())
            .isLessThanOrEqualTo(Integer.parseInt(m.group(4)));
      }
      assertThat(pinnedInIntervals).as("the intervals add up to the total").isEqualTo(lastTotal);
      assertThat(lastTotal).isPositive();
      assertThat(result.out()).contains("top " + holder(java));
      assertThat(result.out())
          .containsPattern("new finding \\[(high|medium|low)\\] .*" + holder(java));
      assertThat(result.err()).contains("recording kept: " + out);
      // the target as it was, and the kept recording says what the screen said
      try (AttachedJvm jvm = AttachedJvm.attach(target.pid())) {
        assertThat(jvm.execute("JFR.check")).doesNotContain("vtscope-");
      }
      Cli.Result analysed = Cli.run("analyze", out.toString(), "--format", "json");
      assertThat(analysed.exitCode()).as(analysed.err()).isZero();
      assertThat(new ObjectMapper().readTree(analysed.out()).at("/pinned/events").asLong())
          .isGreaterThanOrEqualTo(lastTotal);
    }
  }

  /**
   * A JVM with 100,000 parked virtual threads takes seconds to dump on a loaded machine, longer
   * than an interval (here the shortest, half a second): the dump runs beside the intervals, which
   * keep their pace. Intervals end by the clock, a late one followed at once by the next, and the
   * duration counts them by the clock too, so asked for 8 intervals watch prints 8 lines however
   * slow the dump or the machine: no margin is needed, and none is taken. Before dumps ran beside
   * the intervals, a loaded machine printed 2 lines for 6.
   */
  @Test
  void keepsItsPaceWhileA100000ThreadJvmIsDumped() throws Exception {
    Process target =
        new ProcessBuilder(
                ChildJvms.program(
                    TestRecordings.currentJava(),
                    "-Xmx1g",
                    "-cp",
                    System.getProperty("java.class.path"),
                    ParkedCrowdProgram.class.getName(),
                    "100000"))
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("ready 100000");
      int asked = 8;
      Cli.Result result =
          Cli.run(
              "watch",
              "--pid",
              String.valueOf(target.pid()),
              "--interval",
              "500ms",
              "--duration",
              asked * 500 + "ms");
      assertThat(result.exitCode()).as(result.err()).isZero();
      List<String> intervals =
          result.out().lines().filter(l -> INTERVAL.matcher(l).matches()).toList();
      assertThat(intervals).as(result.out()).hasSize(asked);
      // each line shows the latest dump's pinned-now threads, or says the first is still running
      assertThat(intervals)
          .as(result.out())
          .allMatch(l -> l.contains("  pinned now ") || l.contains("first thread dump has run"));
      // until the first dump is read, pinned now is unknown: no interval is called healthy
      List<String> beforeFirstDump =
          result.out().lines().takeWhile(l -> !l.contains("  pinned now ")).toList();
      assertThat(beforeFirstDump).as(result.out()).noneMatch(l -> l.contains("Healthy"));
    } finally {
      target.destroyForcibly();
      target.waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void namesTheCarriersPinnedNowInADeadlockWithNoPinnedEvent() throws Exception {
    Path java = TestRecordings.jdk24PlusJava();
    try (RunningWorkload target =
        RunningWorkload.start(
            java,
            List.of("-Djdk.virtualThreadScheduler.parallelism=2"),
            "poller-deadlock",
            "--timeout",
            "60s")) {
      Path out = dir.resolve("deadlock.jfr");
      Cli.Result result =
          Cli.run(
              "watch",
              "--pid",
              String.valueOf(target.pid()),
              "--interval",
              "1s",
              "--fail-on",
              "high",
              "--pinned-threshold",
              "0ms",
              "--out",
              out.toString());
      // watching ends at the finding, however long a loaded machine takes to dump the threads
      assertThat(result.exitCode()).as(result.err() + target.output()).isEqualTo(6);
      List<String> intervals = result.out().lines().filter(l -> LINE.matcher(l).matches()).toList();
      // until the first thread dump is read, a line says so; from then on, every interval: no
      // pinned event at all, both carriers pinned now by the upcall's caller
      List<String> known =
          intervals.stream().dropWhile(l -> l.contains("pinned now not known yet")).toList();
      assertThat(known).as(result.out()).isNotEmpty();
      Pattern pinnedNow =
          Pattern.compile(
              ".*  pinned 0 \\(0 ms\\), in all 0 .*  pinned now 2/2 \\[PollerDeadlock.readInCallback:"
                  + " #\\d+ reader-[01], #\\d+ reader-[01]].*");
      assertThat(known).as(result.out()).allMatch(l -> pinnedNow.matcher(l).matches());
      // JDK 24+: the scheduler's counts; both carriers run the readers, the read pollers wait
      assertThat(known)
          .as(result.out())
          .allMatch(l -> l.matches(".*  mounted 2/2 queued [1-9]\\d*.*"));
      assertThat(result.out())
          .contains(
              "new finding [high] Every carrier is pinned now: 2 virtual threads blocked without"
                  + " unmounting, held by dev.vtscope.workloads.PollerDeadlock.readInCallback")
          .doesNotContain("Healthy");
      assertThat(target.process().isAlive()).as("still deadlocked: " + target.output()).isTrue();
      Cli.Result analysed = Cli.run("analyze", out.toString(), "--format", "json");
      assertThat(analysed.exitCode()).as(analysed.err()).isZero();
      assertThat(new ObjectMapper().readTree(analysed.out()).at("/pinned/events").asLong())
          .as("JFR wrote no pinned event while the pins lasted")
          .isZero();
    }
  }

  /**
   * Watching runs until two lines have named the holders: on a busy machine the first thread dump
   * may take longer than an interval, and until it ends the lines say pinned now is not known yet.
   */
  @Test
  void namesThreadsPinnedNowOnJdk21() throws Exception {
    // each task sleeps 20 s in a synchronized block of its own: both carriers pinned, no pin ends
    try (RunningWorkload target =
        RunningWorkload.start(
            TestRecordings.jdk21Java(),
            List.of("-Djdk.virtualThreadScheduler.parallelism=2"),
            "pinning-per-task",
            "--tasks",
            "20",
            "--hold",
            "20s")) {
      List<String> known =
          watchUntil(
              "two lines after the first thread dump",
              lines -> lines.dropWhile(l -> l.contains("pinned now not known yet")).toList(),
              lines -> lines.size() >= 2,
              "--pid",
              String.valueOf(target.pid()),
              "--interval",
              "500ms",
              "--pinned-threshold",
              "0ms");
      String out = Files.readString(dir.resolve("watch.log"));
      Pattern pinnedNow =
          Pattern.compile(
              ".*  pinned 0 .*  pinned now 2/2 \\[PerTaskPinning.withMonitor: #\\d+, #\\d+].*");
      assertThat(known).as(out).allMatch(l -> pinnedNow.matcher(l).matches());
      assertThat(out).as("JDK 21 has no Thread.vthread_scheduler").doesNotContain("mounted");
    }
  }

  /**
   * The target never ends by itself: the test ends it once watch's recording runs in it, so that
   * the exit comes while watching however slowly a loaded machine starts either JVM.
   */
  @Test
  void endsWhenTheJvmExitsAndKeepsWhatItWrote() throws Exception {
    try (RunningWorkload target =
        RunningWorkload.start(
            TestRecordings.jdk21Java(),
            List.of(),
            "pinning",
            "--variant",
            "synchronized",
            "--tasks",
            "1000000",
            "--hold",
            "20ms")) {
      Path out = dir.resolve("exited.jfr");
      CompletableFuture<Cli.Result> watching =
          CompletableFuture.supplyAsync(
              () ->
                  Cli.run(
                      "watch",
                      "--pid",
                      String.valueOf(target.pid()),
                      "--interval",
                      "1s",
                      "--pinned-threshold",
                      "0ms",
                      "--out",
                      out.toString()));
      Eventually.holds(
          "watch's recording runs in the target",
          () -> {
            try (AttachedJvm jvm = AttachedJvm.attach(target.pid())) {
              return jvm.execute("JFR.check").contains("vtscope-");
            }
          });
      target.process().destroy(); // SIGTERM: the JVM runs its shutdown and exits
      // no --duration: only the JVM's exit ends watching, with exit code 8
      Cli.Result result = watching.get();
      assertThat(result.exitCode()).as(result.err()).isEqualTo(8);
      assertThat(result.err()).contains("pid " + target.pid() + " exited");
      assertThat(out).isRegularFile();
    }
  }

  @Test
  void watchesARepositoryFolder() throws Exception {
    Path repository = dir.resolve("repository");
    try (RunningWorkload target =
        RunningWorkload.pinning(
            TestRecordings.jdk21Java(),
            List.of(
                "-XX:StartFlightRecording:jdk.VirtualThreadPinned#threshold=0ms",
                "-XX:FlightRecorderOptions:repository=" + repository,
                "-Xlog:jfr+startup=warning"))) {
      Eventually.holds("JFR's folder in " + repository, () -> chunkFolder(repository) != null);
      Path folder = chunkFolder(repository);
      assertThat(folder.getFileName().toString()).endsWith("_" + target.pid());
      // watched until its lines name the holder: how many intervals a loaded machine gets through
      // in a given time is not what this checks
      List<String> intervals =
          watchUntil(
              "an interval line naming the holder",
              lines -> lines.toList(),
              lines ->
                  lines.stream().anyMatch(l -> l.contains("top SharedLockPinning.withMonitor")),
              folder.toString(),
              "--interval",
              "500ms");
      // the JVM wrote its CPU count when its chunk began, before watching did
      for (String line : intervals) {
        Matcher m = LINE.matcher(line);
        assertThat(m.matches()).isTrue();
        assertThat(Integer.parseInt(m.group(4))).as("parallelism in " + line).isPositive();
      }
    }
  }

  /** Ctrl-C ends watching as q does: the recording in the target stopped, exit code 0. */
  @Test
  void ctrlCStopsWatchingAndTheRecordingInTheTarget() throws Exception {
    try (RunningWorkload target = RunningWorkload.pinning(TestRecordings.jdk21Java(), List.of())) {
      Path log = dir.resolve("watch.log");
      // A shell's background job starts with SIGINT ignored, and so would vtscope (as Ctrl-C
      // cannot reach a background job anyway): env gives it the default disposition, as a
      // terminal's foreground job has.
      Process vtscope =
          new ProcessBuilder(
                  Stream.concat(
                          Stream.of("env", "--default-signal=INT"),
                          ChildJvms.vtscope(
                              TestRecordings.currentJava(),
                              "watch",
                              "--pid",
                              String.valueOf(target.pid()),
                              "--interval",
                              "1s")
                              .stream())
                      .toList())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      try {
        Eventually.holds(
            "an interval line",
            () -> {
              assertThat(vtscope.isAlive()).as(Files.readString(log)).isTrue();
              return Files.readString(log).lines().anyMatch(l -> LINE.matcher(l).matches());
            });
        try (AttachedJvm jvm = AttachedJvm.attach(target.pid())) {
          assertThat(jvm.execute("JFR.check")).contains("vtscope-");
        }
        // env replaced itself with the JVM: same pid
        Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(vtscope.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        if (!vtscope.waitFor(60, TimeUnit.SECONDS)) {
          String threads;
          try (AttachedJvm stuck = AttachedJvm.attach(vtscope.pid())) {
            threads = stuck.execute("Thread.print");
          }
          throw new AssertionError(
              "vtscope still runs a minute after SIGINT\n" + Files.readString(log) + threads);
        }
        assertThat(vtscope.exitValue()).as(Files.readString(log)).isZero();
        try (AttachedJvm jvm = AttachedJvm.attach(target.pid())) {
          assertThat(jvm.execute("JFR.check")).doesNotContain("vtscope-");
        }
      } finally {
        vtscope.destroyForcibly();
      }
    }
  }

  @Test
  void aFolderWithNoRecordingIsNotCalledHealthy() {
    Cli.Result result = Cli.run("watch", dir.toString(), "--interval", "1s", "--duration", "2s");
    assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(3);
    assertThat(result.out()).doesNotContainIgnoringCase("healthy");
    assertThat(result.err())
        .contains("no JFR recording in " + dir + " yet; waiting")
        .contains("no JFR recording appeared in " + dir);
  }

  /**
   * watch takes analyze's analysis options; its reader is the JDK's, the only one that follows a
   * repository as it is written, and a class path entry that does not exist is refused before
   * watching starts.
   */
  @Test
  void takesTheAnalysisOptionsOfAnalyze() {
    Cli.Result vtscopeReader = Cli.run("watch", dir.toString(), "--reader", "vtscope");
    assertThat(vtscopeReader.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(vtscopeReader.err()).startsWith("vtscope watch: --reader takes jdk, not 'vtscope'");
    Cli.Result missing =
        Cli.run(
            "watch",
            dir.toString(),
            "--reader",
            "jdk",
            "--app-package",
            "com.acme",
            "--group-by",
            "stack",
            "--classpath",
            dir.resolve("missing.jar").toString());
    assertThat(missing.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(missing.err()).contains("missing.jar: no such file");
  }

  @Test
  void badInputIsOneLineAndAUsageError() {
    Cli.Result neither = Cli.run("watch");
    assertThat(neither.exitCode()).isEqualTo(2);
    assertThat(neither.err()).contains("give --pid PID or a JFR repository folder");
    Cli.Result fast = Cli.run("watch", "--pid", "1", "--interval", "10ms");
    assertThat(fast.exitCode()).isEqualTo(2);
    assertThat(fast.err().lines()).hasSize(1);
    Cli.Result severity = Cli.run("watch", "--pid", "1", "--fail-on", "severe");
    assertThat(severity.exitCode()).isEqualTo(2);
    assertThat(severity.err().lines()).singleElement().asString().contains("--fail-on takes info");
    Cli.Result missing = Cli.run("watch", dir.resolve("nothing").toString());
    assertThat(missing.exitCode()).isEqualTo(3);
    assertThat(missing.err().lines()).hasSize(1);
  }

  /** The JVM's chunk folder inside a JFR repository, or null before JFR made it. */
  private static Path chunkFolder(Path repository) throws IOException {
    if (!Files.isDirectory(repository)) {
      return null;
    }
    try (Stream<Path> folders = Files.list(repository)) {
      return folders.filter(Files::isDirectory).findFirst().orElse(null);
    }
  }

  /**
   * Runs {@code watch ARGS} in a child JVM, writing to {@code watch.log} in the test's folder,
   * until its whole interval lines, as {@code lines} keeps them, are {@code enough}; then stops it
   * and returns them.
   */
  private List<String> watchUntil(
      String what,
      java.util.function.Function<Stream<String>, List<String>> lines,
      java.util.function.Predicate<List<String>> enough,
      String... args)
      throws Exception {
    Path log = dir.resolve("watch.log");
    Path err = dir.resolve("watch.err");
    Process vtscope =
        Cli.childProcess(Stream.concat(Stream.of("watch"), Stream.of(args)).toArray(String[]::new))
            .redirectOutput(log.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      return Eventually.value(
          what,
          () -> {
            assertThat(vtscope.isAlive())
                .as(Files.readString(log) + Files.readString(err))
                .isTrue();
            String written = Files.readString(log);
            // whole lines only: the last may be half written
            return lines.apply(
                written
                    .substring(0, written.lastIndexOf('\n') + 1)
                    .lines()
                    .filter(l -> LINE.matcher(l).matches()));
          },
          enough);
    } finally {
      vtscope.destroy();
      vtscope.waitFor(60, TimeUnit.SECONDS);
    }
  }
}
