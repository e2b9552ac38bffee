package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.live.AttachedJvm;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vtscope record} with real child JVMs. */
class RecordCommandTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  private static String jdk21Home() {
    return TestRecordings.jdk21Java().getParent().getParent().toString();
  }

  @Test
  void recordsTheSynchronizedPinningWorkloadOnJdk21AndExplainsIt() throws Exception {
    Path out = dir.resolve("pinning.jfr");
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--jdk",
            jdk21Home(),
            "--out",
            out.toString(),
            "--format",
            "json",
            "--",
            "--tasks",
            "30");
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(out).isRegularFile();
    JsonNode report = MAPPER.readTree(result.out());
    assertThat(report.at("/jvm/feature").asInt()).isEqualTo(21);
    assertThat(report.at("/pinned/events").asLong()).isPositive();
    assertThat(report.at("/pinned/sites/0/culprit/kind").asText()).isEqualTo("SYNCHRONIZED_BLOCK");
    assertThat(report.at("/pinned/sites/0/culprit/method").asText()).isEqualTo("withMonitor");
    assertThat(result.err()).contains("exited with code 0").contains("tasks: 30");
  }

  /**
   * record analyses its recording with analyze's options: here the workload's own package is
   * declared not the application's, so its monitor is a library's, and sites group by stack.
   */
  @Test
  void analyzesWithTheOptionsOfAnalyze() throws Exception {
    Path out = dir.resolve("pinning.jfr");
    Path report = dir.resolve("report.json");
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--jdk",
            jdk21Home(),
            "--out",
            out.toString(),
            "--format",
            "json",
            "-o",
            report.toString(),
            "--app-package",
            "com.acme",
            "--group-by",
            "stack",
            "--reader",
            "jdk",
            "--classpath",
            out.getParent().toString(),
            "--",
            "--tasks",
            "30");
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).as("the report went to -o").isEmpty();
    JsonNode json = MAPPER.readTree(report.toFile());
    assertThat(json.at("/groupBy").asText()).isEqualTo("stack");
    assertThat(json.at("/pinned/sites/0/culprit/method").asText()).isEqualTo("withMonitor");
    assertThat(json.at("/pinned/sites/0/culprit/owner").asText()).isEqualTo("library");
  }

  @Test
  void aClassPathEntryThatDoesNotExistIsRefusedBeforeAnythingIsRecorded() {
    Path out = dir.resolve("never.jfr");
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--out",
            out.toString(),
            "--classpath",
            dir.resolve("missing.jar").toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(result.err()).contains("--classpath: ").contains("missing.jar: no such file");
    assertThat(out).doesNotExist();
  }

  @Test
  void theRecordingAndTheReportMayNotBeOneFile() {
    Path both = dir.resolve("both.jfr");
    Cli.Result result =
        Cli.run("record", "--workload", "pinning", "--out", both.toString(), "-o", both.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err()).contains("--out " + both + " and -o " + both + " name one file");
    assertThat(both).doesNotExist();
  }

  @Test
  void aWorkloadThatCannotRunOnTheChosenJdkIsRefusedBeforeAnythingStarts() {
    Path out = dir.resolve("native.jfr");
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "native-pinning",
            "--jdk",
            jdk21Home(),
            "--out",
            out.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err())
        .contains("native-pinning needs JDK 22 or later")
        .contains("JDK 21 was chosen")
        .doesNotContain("running");
    assertThat(out).doesNotExist();
  }

  @Test
  void aJavaWithoutVirtualThreadsIsRefusedBeforeItRuns() throws Exception {
    // an installed JDK 17, as the default java of many machines is
    Path bin = Files.createDirectories(dir.resolve("jdk-17/bin"));
    Files.writeString(dir.resolve("jdk-17/release"), "JAVA_VERSION=\"17.0.15\"\n");
    Path fakeJava = bin.resolve("java");
    Files.writeString(fakeJava, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(
        fakeJava, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path out = dir.resolve("old.jfr");
    Cli.Result result =
        Cli.run("record", "--out", out.toString(), "--", fakeJava.toString(), "-version");
    assertThat(result.exitCode()).isEqualTo(9);
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err())
        .contains("is JDK 17")
        .contains("no virtual threads")
        .contains("--jdk 21");
    assertThat(out).doesNotExist();
  }

  @Test
  void theChildDoesNotRepeatTheOptionsVtscopeGaveIt() {
    Path out = dir.resolve("quiet.jfr");
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--jdk",
            jdk21Home(),
            "--out",
            out.toString(),
            "--no-analyze",
            "--",
            "--tasks",
            "5");
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err())
        .doesNotContain("Picked up JDK_JAVA_OPTIONS")
        .doesNotContain("[jfr,startup]")
        .contains("tasks: 5");
    assertThat(result.out()).doesNotContain("[jfr,startup]");
  }

  @Test
  void theFixedTwinDoesNotPin() throws Exception {
    Path out = dir.resolve("lock.jfr");
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--variant",
            "reentrant-lock",
            "--jdk",
            jdk21Home(),
            "--out",
            out.toString(),
            "--format",
            "json",
            "--",
            "--tasks",
            "30");
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(MAPPER.readTree(result.out()).at("/pinned/events").asLong()).isZero();
  }

  @Test
  void saysWhenTheChosenJdkCannotShowTheEffect() {
    if (Runtime.version().feature() < 24) {
      // Only a JDK 24+ lacks monitor pinning; on JDK 21 the default JDK shows it.
      Cli.Result result =
          Cli.run(
              "record",
              "--workload",
              "pinning",
              "--out",
              dir.resolve("a.jfr").toString(),
              "--no-analyze",
              "--",
              "--tasks",
              "10");
      assertThat(result.err()).doesNotContain("cannot show this effect");
      return;
    }
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--out",
            dir.resolve("b.jfr").toString(),
            "--no-analyze",
            "--",
            "--tasks",
            "10");
    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).contains("cannot show this effect").contains("--jdk 21");
  }

  @Test
  void recordsAnyJavaCommandAndReportsItsExitCode() throws Exception {
    Path out = dir.resolve("command.jfr");
    Path java = TestRecordings.currentJava();
    Cli.Result result =
        Cli.run(
            "record",
            "--out",
            out.toString(),
            "--format",
            "json",
            "--",
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            "dev.vtscope.workloads.Workloads",
            "pinning",
            "--variant",
            "bogus");
    assertThat(result.exitCode()).isEqualTo(5);
    assertThat(result.err()).contains("exited with code 2");
    assertThat(out).isRegularFile();
    assertThat(MAPPER.readTree(result.out()).at("/inputs/0/complete").asBoolean()).isTrue();
  }

  @Test
  void aMistypedWorkloadGetsTheNearestName() {
    Cli.Result result = Cli.run("record", "--workload", "pinnng");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err()).contains("did you mean 'pinning'");
  }

  @Test
  void jdkAppliesToACommandThatRunsABareJava() throws Exception {
    Cli.Result result = recordWithJdk21("java", "--format", "json");
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).contains("--jdk 21: 'java' runs as");
    assertThat(MAPPER.readTree(result.out()).at("/jvm/feature").asInt()).isEqualTo(21);
  }

  @Test
  void jdkDoesNotSilentlyReplaceAnExplicitJava() {
    Cli.Result result = recordWithJdk21(TestRecordings.currentJava().toString(), "--no-analyze");
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).contains("does not replace the java named in the command");
  }

  /** {@code record --jdk 21 OPTIONS -- JAVA …} of a short workload. */
  private Cli.Result recordWithJdk21(String java, String... options) {
    List<String> args =
        new ArrayList<>(
            List.of("record", "--jdk", jdk21Home(), "--out", dir.resolve("jdk.jfr").toString()));
    args.addAll(List.of(options));
    args.addAll(
        List.of(
            "--",
            java,
            "-cp",
            System.getProperty("java.class.path"),
            "dev.vtscope.workloads.Workloads",
            "sleep-fanout",
            "--tasks",
            "10",
            "--sleep",
            "1ms"));
    return Cli.run(args.toArray(String[]::new));
  }

  /** The JFR settings files record wrote into {@code tmp}. */
  private static List<Path> settingsFiles(Path tmp) throws java.io.IOException {
    try (var files = Files.list(tmp)) {
      return files.filter(f -> f.getFileName().toString().matches("vtscope-.*\\.jfc")).toList();
    }
  }

  /**
   * record writes its JFR settings to a temporary file for the program's JVM to read; it is gone
   * when record ends, also when record is stopped (Ctrl-C, kill) while the program runs.
   */
  @Test
  void noSettingsFileIsLeftWhenRecordEndsOrIsStopped() throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    // the temporary folder of vtscope's JVM (and of the program's, which inherits the variable)
    String tmpdir = "-Djava.io.tmpdir=" + tmp;
    Path done = dir.resolve("done.jfr");
    Cli.Result ended =
        Cli.child(
            b -> b.environment().put("JDK_JAVA_OPTIONS", tmpdir),
            null,
            "record",
            "--workload",
            "sleep-fanout",
            "--no-analyze",
            "--out",
            done.toString(),
            "--",
            "--tasks",
            "10",
            "--sleep",
            "1ms");
    assertThat(ended.exitCode()).as(ended.err()).isZero();
    assertThat(done).exists();
    assertThat(settingsFiles(tmp)).isEmpty();

    ProcessBuilder stopped =
        Cli.childProcess(
                "record",
                "--workload",
                "connection-pool",
                "--no-analyze",
                "--out",
                dir.resolve("stopped.jfr").toString(),
                "--",
                "--query",
                "60s",
                "--stall-after",
                "120s")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    stopped.environment().put("JDK_JAVA_OPTIONS", tmpdir);
    Process record = stopped.start();
    try {
      dev.vtscope.testing.Eventually.holds(
          "record wrote its settings file", () -> !settingsFiles(tmp).isEmpty());
    } finally {
      record.destroy(); // SIGTERM, as kill; Ctrl-C's SIGINT ends the JVM the same way
      record.waitFor();
    }
    assertThat(settingsFiles(tmp)).isEmpty();
  }

  /**
   * The timeouts a test stopping a program tries in turn: a quiet machine starts the JVM and the
   * workload within the first, a loaded one has taken over 10 s (beside other builds).
   */
  private static final List<String> TIMEOUTS = List.of("6s", "30s");

  /**
   * Records a program that runs on until stopped, with each of {@link #TIMEOUTS} in turn until
   * {@code underWay} finds in the report that the program was under way when the timeout stopped
   * it: a longer timeout is tried only after a shorter one stopped the program too early, so the
   * test waits for the program rather than for a fixed time. Every run ends at its timeout, exit
   * code 5; the last one's report is returned, under way or not.
   */
  private JsonNode recordUntilTheTimeout(
      String name, java.util.function.Predicate<JsonNode> underWay, String... workload)
      throws Exception {
    for (int i = 0; ; i++) {
      String timeout = TIMEOUTS.get(i);
      List<String> args = new ArrayList<>();
      args.addAll(List.of("record", "--workload", name, "--jdk", jdk21Home()));
      args.addAll(List.of("--timeout", timeout, "--format", "json"));
      args.addAll(List.of("--out", dir.resolve(name + "-" + timeout + ".jfr").toString(), "--"));
      args.addAll(List.of(workload));
      Cli.Result result = Cli.run(args.toArray(String[]::new));
      assertThat(result.exitCode()).as(result.err()).isEqualTo(5);
      assertThat(result.err()).contains("stopped after the " + timeout + " timeout");
      JsonNode report = MAPPER.readTree(result.out());
      if (i == TIMEOUTS.size() - 1 || underWay.test(report)) {
        return report;
      }
    }
  }

  @Test
  void aTimeoutStopsTheProgramAndKeepsItsRecording() throws Exception {
    // every task holds its connection for a minute: the others wait in Object.wait(), on JDK 21
    // each wait starting a carrier, and the program is certainly running at the timeout (without
    // --query it may finish in a second when the pool does not stall)
    JsonNode report =
        recordUntilTheTimeout(
            "connection-pool",
            r -> r.at("/scheduler/carriersStarted").asInt() > 2,
            "--query",
            "60s",
            "--stall-after",
            "120s");
    assertThat(report.at("/scheduler/carriersStarted").asInt()).as("%s", report).isGreaterThan(2);
  }

  /**
   * A program that hangs with every carrier pinned by pins that never end wrote no pinned event:
   * the timeout stops it, and the thread dump taken first names the holders, not "healthy".
   */
  @Test
  void aProgramHungWithEveryCarrierPinnedIsNamedFromADumpAtTheTimeout() throws Exception {
    JsonNode report =
        recordUntilTheTimeout(
            "pinning-per-task",
            r -> r.at("/findings/0/id").asText().equals("pinned-now"),
            "--tasks",
            "64",
            "--hold",
            "60s");
    JsonNode first = report.at("/findings/0");
    assertThat(first.get("id").asText()).as("%s", report).isEqualTo("pinned-now");
    assertThat(first.get("title").asText()).contains("PerTaskPinning.withMonitor");
    assertThat(report.get("findings").findValuesAsText("id")).doesNotContain("healthy");
  }

  /**
   * vtscope itself stopped (a CI job's timeout sends SIGTERM to it alone): the program it runs is
   * stopped too, and writes its recording, rather than running on.
   */
  @Test
  void stoppingVtscopeStopsTheProgramItRecords() throws Exception {
    Path out = dir.resolve("interrupted.jfr");
    Process vtscope =
        Cli.childProcess(
                "record",
                "--workload",
                "connection-pool",
                "--jdk",
                jdk21Home(),
                "--out",
                out.toString(),
                "--",
                "--query",
                "60s",
                "--stall-after",
                "120s")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(dir.resolve("vtscope.err").toFile())
            .start();
    try {
      // its recording is under way: the JVM says so when asked, as jcmd JFR.check would; a vtscope
      // that ended ends the wait at once, with what it said
      ProcessHandle program =
          Eventually.value(
                  "the program's recording started",
                  () -> {
                    assertThat(vtscope.isAlive())
                        .as(
                            "vtscope runs; it said:%n%s",
                            Files.readString(dir.resolve("vtscope.err")))
                        .isTrue();
                    return vtscope
                        .toHandle()
                        .children()
                        .filter(RecordCommandTest::recording)
                        .findFirst();
                  },
                  java.util.Optional::isPresent)
              .orElseThrow();
      vtscope.destroy(); // SIGTERM to vtscope only
      assertThat(vtscope.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(program.isAlive()).as("the program vtscope ran").isFalse();
      assertThat(out).isRegularFile();
      assertThat(Files.size(out)).isPositive();
    } finally {
      vtscope.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      vtscope.destroyForcibly();
    }
  }

  /** Whether {@code jvm} is alive and records with JFR. */
  private static boolean recording(ProcessHandle jvm) {
    try (AttachedJvm attached = AttachedJvm.attach(jvm.pid())) {
      return attached.execute("JFR.check").contains("Recording ");
    } catch (Exception notYet) {
      return false;
    }
  }

  @Test
  void neverOverwritesAFile() throws Exception {
    Path existing = Files.writeString(dir.resolve("keep.jfr"), "precious");
    Cli.Result result = Cli.run("record", "--workload", "pinning", "--out", existing.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).startsWith("vtscope record: ").contains("already exists");
    assertThat(Files.readString(existing)).isEqualTo("precious");
  }

  /** The recorded JVM writes the recording itself: where it cannot, nothing is started. */
  @Test
  void aRecordingThatCannotBeWrittenIsSaidBeforeAnythingStarts() {
    Path nowhere = dir.resolve("no-such-folder/app.jfr");
    Cli.Result result = Cli.run("record", "--workload", "pinning", "--out", nowhere.toString());
    assertThat(result.exitCode()).as(result.err()).isEqualTo(3);
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err())
        .startsWith("vtscope record: cannot write " + nowhere + ": its folder does not exist");
  }

  @Test
  void unknownWorkloadAndMissingJdkAreOneLineErrors() {
    Cli.Result unknown = Cli.run("record", "--workload", "nope");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).contains("vtscope workloads");
    Cli.Result noJdk = Cli.run("record", "--workload", "pinning", "--jdk", "8");
    assertThat(noJdk.exitCode()).isEqualTo(9);
    assertThat(noJdk.err().lines()).hasSize(1);
    assertThat(noJdk.err()).contains("no JDK 8 found");
  }

  @Test
  void printsItsSettingsWithoutSecretsOrProcessLists() {
    Cli.Result result = Cli.run("record", "--settings");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("jdk.VirtualThreadPinned")
        .contains(
            "<event name=\"jdk.InitialEnvironmentVariable\">\n    <setting name=\"enabled\">false</setting>")
        .contains(
            "<event name=\"jdk.SystemProcess\">\n    <setting name=\"enabled\">false</setting>");
  }

  @Test
  void workloadsAreListedWithWhereTheirEffectExists() {
    Cli.Result result = Cli.run("workloads");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("pinning")
        .contains("connection-pool")
        .contains("effect on JDK 21-23");
  }
}
