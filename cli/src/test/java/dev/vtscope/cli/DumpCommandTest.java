package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.ControlCharacterNameProgram;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.RunningWorkload;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code vtscope dump PID} against workloads stuck in child JVMs of JDK 21 and of JDK 24+, each
 * with two carriers and dumped once it says {@code ready:}: the report names the stuck threads and
 * where they wait, a series shows them persisting and reads back from its saved files as the same,
 * and a JVM whose JSON dump fails, a pid that is no JVM and a JVM that exits during a series are
 * each said in one line.
 */
class DumpCommandTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final List<String> TWO_CARRIERS =
      List.of("-Djdk.virtualThreadScheduler.parallelism=2");

  @TempDir Path dir;

  private static RunningWorkload ready(Path java, String... workload) throws Exception {
    return RunningWorkload.start(java, TWO_CARRIERS, workload).awaitLine("ready:");
  }

  /** The report of {@code dump PID args…} as JSON; fails unless it exits 0. */
  private static JsonNode dumpJson(long pid, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("dump", String.valueOf(pid)));
    command.addAll(List.of(args));
    command.addAll(List.of("--format", "json"));
    Cli.Result result = Cli.run(command.toArray(String[]::new));
    assertThat(result.exitCode()).as(result.err()).isZero();
    return MAPPER.readTree(result.out());
  }

  /** The waits of the last dump whose site is in {@code method} (Class.method). */
  private static List<JsonNode> waitsAt(JsonNode report, String method) {
    List<JsonNode> waits = new ArrayList<>();
    report.get("waits").forEach(w -> waits.add(w));
    return waits.stream().filter(w -> w.at("/key/site").asText().startsWith(method + ":")).toList();
  }

  private static List<String> sampledNames(List<JsonNode> waits) {
    List<String> names = new ArrayList<>();
    for (JsonNode w : waits) {
      w.get("sampled").forEach(t -> names.add(t.get("name").asText()));
    }
    return names;
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void namesBothThreadsOfAVirtualMonitorCycle(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "deadlock", "--variant", "monitor")) {
      JsonNode report = dumpJson(w.pid());
      assertThat(report.at("/dumps/0/format").asText()).isEqualTo("json");
      assertThat(report.at("/dumps/0/pid").asLong()).isEqualTo(w.pid());
      // JDK 21's one dump leaves the cycle possible, and a second follows; JDK 25's proves it
      assertThat(report.get("dumps")).hasSize(java.equals(TestRecordings.jdk21Java()) ? 2 : 1);
      List<JsonNode> cycle =
          waitsAt(report, "dev.vtscope.workloads.LockOrderDeadlock.withMonitors");
      assertThat(sampledNames(cycle))
          .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
      assertThat(cycle).allSatisfy(g -> assertThat(g.get("virtualThreads").asInt()).isPositive());
    }
  }

  /**
   * The high finding of {@code dump PID args…}'s text report whose title starts with {@code title},
   * its lines joined.
   */
  private static String finding(long pid, String title, String... args) {
    List<String> command = new ArrayList<>(List.of("dump", String.valueOf(pid)));
    command.addAll(List.of(args));
    Cli.Result result = Cli.run(command.toArray(String[]::new));
    assertThat(result.exitCode()).as(result.err()).isZero();
    return finding(result.out(), title);
  }

  /** The high finding of a text report whose title starts with {@code title}, its lines joined. */
  private static String finding(String report, String title) {
    return report
        .lines()
        .dropWhile(
            l -> !l.matches(" +\\d+\\. \\[high] +" + java.util.regex.Pattern.quote(title) + ".*"))
        .takeWhile(l -> !l.isBlank())
        .map(String::strip)
        .reduce((a, b) -> a + " " + b)
        .orElseThrow(() -> new AssertionError("no finding " + title + ":\n" + report));
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void namesAPlatformMonitorCycleAsAProvenDeadlock(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "deadlock", "--variant", "platform-monitor")) {
      assertThat(finding(w.pid(), "Deadlock over monitors: "))
          .containsPattern(
              "holds-a-wants-b \\(platform #\\d+ at dev\\.vtscope\\.workloads\\.LockOrderDeadlock\\.")
          .contains("held by holds-b-wants-a")
          .contains("held by holds-a-wants-b");
    }
  }

  @Test
  void namesAVirtualMonitorCycleOnJdk25AsAProvenDeadlock() throws Exception {
    try (RunningWorkload w =
        ready(TestRecordings.jdk24PlusJava(), "deadlock", "--variant", "monitor")) {
      assertThat(finding(w.pid(), "Deadlock over monitors: "))
          .containsPattern(
              "holds-a-wants-b \\(virtual #\\d+ at dev\\.vtscope\\.workloads\\.LockOrderDeadlock\\.\\S+\\)"
                  + " waits for monitor java\\.lang\\.Object@[0-9a-f]+ held by holds-b-wants-a");
    }
  }

  /**
   * JDK 21's dumps name neither the monitors nor their holders: one dump shows two virtual threads
   * where they enter monitors, so dump takes a second a moment later, in which they stand still.
   */
  @Test
  void namesAVirtualMonitorCycleOnJdk21FromASecondDump() throws Exception {
    try (RunningWorkload w =
        ready(TestRecordings.jdk21Java(), "deadlock", "--variant", "monitor")) {
      Cli.Result result = Cli.run("dump", String.valueOf(w.pid()));
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.err())
          .contains(
              "one dump cannot tell a deadlock from a long wait; a second one follows in 1 s");
      assertThat(result.out())
          .contains("dump        pid " + w.pid() + ", dump 1")
          .contains("dump        pid " + w.pid() + ", dump 2");
      assertThat(finding(result.out(), "Stuck for at least"))
          .contains("over monitors")
          .containsPattern(
              "holds-a-wants-b \\(virtual #\\d+, pinned at dev\\.vtscope\\.workloads\\.LockOrderDeadlock"
                  + "\\.withMonitors\\(LockOrderDeadlock\\.java:\\d+\\)\\) waits to enter a monitor there")
          .contains("holds-b-wants-a (virtual #")
          .contains("A thread dump of JDK 21-23 names neither the monitor");

      // kept with the JVM's class path, the series reads back with the same answer
      Path saved = dir.resolve("saved");
      Cli.Result kept =
          Cli.run(
              "dump",
              String.valueOf(w.pid()),
              "--count",
              "2",
              "--every",
              "500ms",
              "--save",
              saved.toString());
      assertThat(kept.exitCode()).as(kept.err()).isZero();
      assertThat(saved.resolve(w.pid() + ".jvm.properties")).isRegularFile();
      Cli.Result again = Cli.run("analyze", saved.toString());
      assertThat(again.exitCode()).as(again.err()).isZero();
      assertThat(again.err()).as("nothing of the folder skipped").isEmpty();
      assertThat(finding(again.out(), "Stuck for at least")).contains("over monitors");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void namesEveryCarrierWaitingForOneClassInitialisation(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "class-init-deadlock", "--variant", "carriers")) {
      // one dump calls it possible (a long wait looks the same); two that show it unchanged, stuck
      assertThat(finding(w.pid(), "Stuck for at least", "--count", "2", "--every", "500ms"))
          .contains(
              "of the carriers: every one of the 2 carriers waits for"
                  + " dev.vtscope.workloads.ClassInitDeadlock$Gate's initialisation")
          .containsPattern("user-0 \\(virtual #\\d+, pinned at ")
          .containsPattern("held by initialiser \\(virtual #\\d+, pinned at ")
          // named in full once, by name after
          .contains(
              "waits for dev.vtscope.workloads.ClassInitDeadlock$Gate's initialisation, run by"
                  + " initialiser;")
          .contains("waits in java.util.concurrent.CountDownLatch.await")
          .containsPattern("\\d+ virtual threads? waits? for a carrier: ");
    }
  }

  /**
   * JDK 21: one task sleeps inside the shared monitor and the next waits to enter it, so both
   * carriers are pinned; a single dump shows the waiter as if it ran at the monitor's line, so
   * {@code dump} takes a second one by itself, which shows it standing still: pinned.
   */
  @Test
  void aVirtualThreadWhereAMonitorIsEnteredOnJdk21IsToldByASecondDump() throws Exception {
    try (RunningWorkload w =
        RunningWorkload.start(
            TestRecordings.jdk21Java(),
            TWO_CARRIERS,
            "pinning",
            "--variant",
            "synchronized",
            "--tasks",
            "6",
            "--hold",
            "60s")) {
      Cli.Result[] last = new Cli.Result[1];
      // until the second task stands at the monitor: a loaded machine may start it late
      Eventually.holds(
          "a dump that leaves a monitor's entry undecided",
          () -> {
            last[0] = Cli.run("dump", String.valueOf(w.pid()), "--format", "json");
            assertThat(last[0].exitCode()).as(last[0].err()).isZero();
            return last[0].err().contains("a second one follows");
          });
      JsonNode report = MAPPER.readTree(last[0].out());
      assertThat(report.get("dumps")).hasSize(2);
      // dump reads the parallelism from the JVM: the two pins hold both of its carriers
      assertThat(report.at("/findings").toString())
          .contains("Every carrier is pinned now: 2 virtual threads")
          .contains("SharedLockPinning.withMonitor");
    }
  }

  @Test
  void findsNoDeadlockWhereJdk25UnmountsTheCarrierStarvationsWaiters() throws Exception {
    try (RunningWorkload w =
        ready(TestRecordings.jdk24PlusJava(), "carrier-starvation", "--hold", "600s")) {
      Cli.Result result =
          Cli.run("dump", String.valueOf(w.pid()), "--count", "2", "--every", "500ms");
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.out())
          .contains("virtual threads park in ReentrantLock.lock at CarrierStarvation.waitInMonitor")
          .doesNotContain("Deadlock")
          .doesNotContain("deadlock")
          .doesNotContain("Stuck for");
    }
  }

  /** A pool of two carriers that the scheduler may grow to four for pins it makes up for. */
  private static final List<String> FOUR_CARRIERS_AT_MOST =
      List.of(
          "-Djdk.virtualThreadScheduler.parallelism=2",
          "-Djdk.virtualThreadScheduler.maxPoolSize=4");

  /** The scheduler's size {@code dump --save} kept beside the dumps in {@code folder}. */
  private static java.util.Properties kept(Path folder, long pid) throws Exception {
    java.util.Properties p = new java.util.Properties();
    try (var in = Files.newBufferedReader(folder.resolve(pid + ".jvm.properties"))) {
      p.load(in);
    }
    return p;
  }

  /**
   * JDK 21: every carrier the scheduler may start (maxPoolSize 4) pinned in Object.wait(), the
   * notifier asleep with none left to wake on. A dump names neither the maximum nor the
   * parallelism; dump reads them from the JVM, so one dump calls it probable, and the series kept
   * with them reads back the same.
   */
  @Test
  void namesEveryCarrierPinnedInObjectWaitAtTheMaxPoolSizeOnJdk21() throws Exception {
    try (RunningWorkload w =
        RunningWorkload.start(
                TestRecordings.jdk21Java(),
                FOUR_CARRIERS_AT_MOST,
                "carrier-starvation",
                "--variant",
                "object-wait")
            .awaitLine("ready:")) {
      String title = "Probable deadlock of the carriers at the scheduler's maximum pool size";
      assertThat(finding(w.pid(), title, "--count", "1"))
          .contains(
              "every one of the 4 carriers (jdk.virtualThreadScheduler.maxPoolSize is 4) is pinned"
                  + " in Object.wait(), and the scheduler may start no more")
          .contains(
              "the 4 carriers are held by 4 virtual threads waiting at"
                  + " dev.vtscope.workloads.CarrierStarvation$Permits.acquire(CarrierStarvation.java:")
          .containsPattern("waiter-\\d \\(virtual #\\d+\\)")
          .contains("3 virtual threads wait for a carrier: ")
          .containsPattern(
              "notifier \\(virtual #\\d+ at"
                  + " dev\\.vtscope\\.workloads\\.CarrierStarvation\\.lambda\\$atPoolMax\\$0")
          .contains("by a java.util.concurrent lock and its Condition, or a Semaphore")
          .contains("Or upgrade to JDK 24 or later")
          .contains("A larger jdk.virtualThreadScheduler.maxPoolSize (now 4) is a stopgap only");

      Path saved = dir.resolve("saved");
      Cli.Result dumped =
          Cli.run("dump", String.valueOf(w.pid()), "--count", "1", "--save", saved.toString());
      assertThat(dumped.exitCode()).as(dumped.err()).isZero();
      assertThat(kept(saved, w.pid()))
          .containsEntry("jdk.virtualThreadScheduler.parallelism", "2")
          .containsEntry("jdk.virtualThreadScheduler.maxPoolSize", "4");
      Cli.Result again = Cli.run("analyze", saved.toString());
      assertThat(again.exitCode()).as(again.err()).isZero();
      assertThat(finding(again.out(), title)).contains("3 virtual threads wait for a carrier");
    }
  }

  /** The same program on JDK 25: Object.wait() unmounts, no carrier is held, nothing starves. */
  @Test
  void findsNoStarvationWhereJdk25UnmountsTheObjectWaitWaiters() throws Exception {
    try (RunningWorkload w =
        RunningWorkload.start(
                TestRecordings.jdk24PlusJava(),
                FOUR_CARRIERS_AT_MOST,
                "carrier-starvation",
                "--variant",
                "object-wait",
                "--hold",
                "600s")
            .awaitLine("ready:")) {
      Cli.Result result = Cli.run("dump", String.valueOf(w.pid()), "--count", "1");
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.out())
          .containsPattern(
              "6 virtual threads wait on a monitor in Object\\.wait at CarrierStarvation")
          .contains("0 virtual threads hold their carrier while blocked")
          .doesNotContain("deadlock")
          .doesNotContain("pinned now");
    }
  }

  /**
   * A busy but healthy JVM of JDK 21: three waiters pinned in Object.wait(), below the scheduler's
   * maximum (8), so it started a carrier beside each and the notifier can run: pinned now, not
   * starved, and not every carrier of the parallelism held.
   */
  @Test
  void objectWaitPinsBelowTheMaxPoolSizeAreNoStarvation() throws Exception {
    try (RunningWorkload w =
        RunningWorkload.start(
                TestRecordings.jdk21Java(),
                List.of(
                    "-Djdk.virtualThreadScheduler.parallelism=2",
                    "-Djdk.virtualThreadScheduler.maxPoolSize=8"),
                "carrier-starvation",
                "--variant",
                "object-wait",
                "--waiters",
                "3",
                "--hold",
                "600s")
            .awaitLine("ready:")) {
      JsonNode report = dumpJson(w.pid(), "--count", "1");
      List<String> findings = new ArrayList<>();
      report
          .get("findings")
          .forEach(f -> findings.add(f.get("id").asText() + " " + f.get("severity").asText()));
      assertThat(findings).containsExactly("pinned-now medium");
    }
  }

  /**
   * JDK 21 with no scheduler property set: the parallelism is the JVM's active processor count,
   * which VM.info says, so two pinned waiters on two processors hold every carrier; the saved
   * series keeps it and rates the same.
   */
  @Test
  void theParallelismOfAJdk21JvmComesFromItsProcessors() throws Exception {
    try (RunningWorkload w =
        RunningWorkload.start(
                TestRecordings.jdk21Java(),
                List.of("-XX:ActiveProcessorCount=2"),
                "carrier-starvation")
            .awaitLine("ready:")) {
      Path saved = dir.resolve("saved");
      String every = "Every carrier is pinned now: 2 virtual threads blocked without unmounting";
      assertThat(finding(w.pid(), every, "--count", "1", "--save", saved.toString()))
          .contains("CarrierStarvation.waitInMonitor");
      assertThat(kept(saved, w.pid()))
          .containsEntry("jdk.virtualThreadScheduler.parallelism", "2")
          .containsEntry("jdk.virtualThreadScheduler.maxPoolSize", "256");
      Cli.Result again = Cli.run("analyze", saved.toString());
      assertThat(again.exitCode()).as(again.err()).isZero();
      assertThat(finding(again.out(), every)).contains("CarrierStarvation.waitInMonitor");
    }
  }

  /**
   * Both threads of a ReentrantLock cycle are parked, unmounted: a dump that kept only the mounted
   * virtual threads, as watch's does, would not show them.
   */
  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void keepsTheUnmountedThreadsOfAReentrantLockCycle(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "deadlock", "--variant", "reentrant-lock")) {
      Cli.Result text = Cli.run("dump", String.valueOf(w.pid()));
      assertThat(text.exitCode()).as(text.err()).isZero();
      assertThat(text.out())
          // one dump cannot tell a cycle of unnamed owners from a long hold: a second follows
          .startsWith("vtscope: what the threads wait for, over 2 dumps\n")
          .contains("[high]   Stuck for at least ")
          .contains("  dump        pid " + w.pid() + ", dump 1  (JSON, JDK ")
          .contains("  dump        pid " + w.pid() + ", dump 2  (JSON, JDK ")
          .containsPattern("parks? in ReentrantLock\\.lock at LockOrderDeadlock\\.withLocks:\\d+")
          .contains("holds-a-wants-b (virtual #", "holds-b-wants-a (virtual #");
      // one dump each from here: the waits and the page, not the second dump, are looked at
      JsonNode report = dumpJson(w.pid(), "--count", "1");
      List<JsonNode> cycle = waitsAt(report, "dev.vtscope.workloads.LockOrderDeadlock.withLocks");
      assertThat(cycle)
          .allSatisfy(
              g ->
                  assertThat(g.at("/key/entry").asText())
                      .isEqualTo("java.util.concurrent.locks.ReentrantLock.lock"));
      assertThat(cycle.stream().mapToInt(g -> g.get("virtualThreads").asInt()).sum()).isEqualTo(2);
      assertThat(sampledNames(cycle))
          .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
      Path page = dir.resolve("waits.html");
      Cli.Result html =
          Cli.run(
              "dump",
              String.valueOf(w.pid()),
              "--count",
              "1",
              "--format",
              "html",
              "-o",
              page.toString());
      assertThat(html.exitCode()).as(html.err()).isZero();
      assertThat(Files.readString(page))
          .startsWith("<!DOCTYPE html>")
          .contains("holds-a-wants-b", "holds-b-wants-a", "LockOrderDeadlock");
    }
  }

  /**
   * A fan-out queued behind a semaphore, dumped twice: the 280 queued tasks (unmounted virtual
   * threads) persist; the saved files read back with analyze give the same report.
   */
  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aSeriesShowsTheQueuedTasksPersistingAndReadsBackFromItsFiles(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "stuck-fanout", "--tasks", "300")) {
      Path saved = dir.resolve("dumps");
      Cli.Result result =
          Cli.run(
              "dump",
              String.valueOf(w.pid()),
              "--count",
              "2",
              "--every",
              "500ms",
              "--save",
              saved.toString(),
              "--format",
              "json");
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.err())
          .as("no progress line off a terminal")
          .doesNotContain("taking dump")
          .contains("vtscope dump: kept in " + saved);
      JsonNode report = MAPPER.readTree(result.out());
      assertThat(report.get("dumps")).hasSize(2);
      JsonNode queued = null;
      for (JsonNode s : report.at("/series/waits")) {
        if (s.at("/key/entry").asText().equals("java.util.concurrent.Semaphore.acquire")) {
          queued = s;
        }
      }
      assertThat(queued).as(report.at("/series").toString()).isNotNull();
      assertThat(queued.get("threads")).extracting(JsonNode::asInt).containsExactly(280, 280);
      assertThat(queued.get("persistent").asInt()).isEqualTo(280);
      // the same 280 of the 300 in both dumps: a crowd whose queue does not drain
      JsonNode crowd = report.at("/findings/0");
      assertThat(crowd.get("id").asText())
          .as(report.at("/findings").toString())
          .isEqualTo("crowded-wait");
      assertThat(crowd.get("severity").asText()).isEqualTo("medium");
      assertThat(crowd.get("title").asText())
          .startsWith("280 of 30") // 300 tasks, and the workload's own virtual threads on some JDKs
          .contains(
              "park for one synchronizer's permits in java.util.concurrent.Semaphore.acquire");

      long pid = w.pid();
      try (Stream<Path> files = Files.list(saved)) {
        assertThat(files.map(f -> f.getFileName().toString()))
            .containsExactlyInAnyOrder(
                pid + ".jvm.properties",
                pid + "-1.json",
                pid + "-1.thread-print.txt",
                pid + "-2.json",
                pid + "-2.thread-print.txt");
      }
      Cli.Result again = Cli.run("analyze", saved.toString(), "--format", "json");
      assertThat(again.exitCode()).as(again.err()).isZero();
      assertThat(MAPPER.readTree(again.out())).isEqualTo(report);
    }
  }

  /**
   * A thread's name with an ESC breaks the JDK's JSON dump: the report is read from the plain text,
   * says so in a note, and names the thread escaped.
   */
  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aNameTheJsonWriterFailsOnIsReportedFromThePlainText(Path java) throws Exception {
    try (RunningWorkload w =
        RunningWorkload.program(java, List.of(), ControlCharacterNameProgram.class)
            .awaitLine("ready")) {
      Cli.Result result = Cli.run("dump", String.valueOf(w.pid()), "--format", "json");
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.err())
          .startsWith("vtscope dump: the JSON thread dump failed (")
          .contains("control character")
          .contains("read its plain text (Thread.dump_to_file) instead")
          .doesNotContain("\u001b");
      JsonNode report = MAPPER.readTree(result.out());
      assertThat(report.at("/dumps/0/format").asText()).isEqualTo("plain-text");
      assertThat(report.at("/dumps/0/notes").toString()).contains("the JSON thread dump failed");
      List<String> names = new ArrayList<>();
      report
          .get("waits")
          .forEach(g -> g.get("sampled").forEach(t -> names.add(t.get("name").asText())));
      assertThat(names).contains(ControlCharacterNameProgram.NAME);
    }
  }

  @Test
  void aProcessThatIsNoJvmIsRefusedInOneLine() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "600").start();
    try {
      Cli.Result result = Cli.run("dump", String.valueOf(sleep.pid()));
      assertThat(result.exitCode()).isEqualTo(ExitCode.TARGET_JVM.code());
      assertThat(result.err())
          .startsWith("vtscope dump: pid " + sleep.pid() + " is not a JVM vtscope can attach to")
          .hasLineCount(1);
      assertThat(result.out()).isEmpty();
      assertThat(sleep.isAlive()).as("not signalled").isTrue();
    } finally {
      sleep.destroyForcibly();
      sleep.waitFor(20, TimeUnit.SECONDS);
    }
    Cli.Result gone = Cli.run("dump", String.valueOf(sleep.pid()));
    assertThat(gone.exitCode()).isEqualTo(ExitCode.TARGET_JVM.code());
    assertThat(gone.err()).startsWith("vtscope dump: no process with pid " + sleep.pid());
  }

  @Test
  void usageErrorsAreSaidBeforeAnythingIsTaken() throws Exception {
    Path full = Files.createDirectories(dir.resolve("full"));
    Files.writeString(full.resolve("other.txt"), "x");
    for (String[] args :
        new String[][] {
          {"dump", "1", "--count", "0"},
          {"dump", "1", "--every", "2s"},
          {"dump", "1", "--format", "openmetrics"},
          {"dump", String.valueOf(ProcessHandle.current().pid()), "--save", full.toString()}
        }) {
      Cli.Result result = Cli.run(args);
      assertThat(result.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE.code());
      assertThat(result.err()).startsWith("vtscope dump: ");
    }
  }

  /**
   * The JVM exits while the series waits for its second dump: the first is reported, with a note,
   * and the exit code says the JVM exited.
   */
  @Test
  void aJvmThatExitsDuringASeriesKeepsTheDumpsTaken() throws Exception {
    try (RunningWorkload w =
        ready(TestRecordings.jdk21Java(), "deadlock", "--variant", "monitor")) {
      Path saved = dir.resolve("series");
      long pid = w.pid();
      CompletableFuture<Cli.Result> dumped =
          CompletableFuture.supplyAsync(
              () ->
                  Cli.run(
                      "dump",
                      String.valueOf(pid),
                      "--count",
                      "2",
                      "--every",
                      "10m",
                      "--save",
                      saved.toString(),
                      "--format",
                      "json"));
      // the first dump's Thread.print is written once the dump is read
      Path printed = saved.resolve(pid + "-1.thread-print.txt");
      Eventually.holds("the first dump is taken", () -> dumped.isDone() || Files.exists(printed));
      w.process().destroyForcibly();
      Cli.Result result = dumped.get(5, TimeUnit.MINUTES);
      assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.TARGET_JVM.code());
      assertThat(result.err())
          .contains("vtscope dump: pid " + pid + " exited after 1 of the 2 dumps asked for");
      JsonNode report = MAPPER.readTree(result.out());
      assertThat(report.get("dumps")).hasSize(1);
      assertThat(report.at("/dumps/0/notes").toString()).contains("exited after 1 of the 2 dumps");
      assertThat(
              sampledNames(waitsAt(report, "dev.vtscope.workloads.LockOrderDeadlock.withMonitors")))
          .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
    }
  }
}
