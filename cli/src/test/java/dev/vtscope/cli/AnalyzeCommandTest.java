package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyzeCommandTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  private static Path sample(String name) {
    return TestRecordings.repoRoot().resolve("samples").resolve(name);
  }

  @Test
  void textReportNamesTheRecordingTheJdkAndTheSite() {
    Cli.Result result = Cli.run("analyze", sample("jdk21/pinning-synchronized.jfr").toString());
    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out())
        .contains("JDK 21.")
        .contains("Pinned sites (by culprit)")
        .contains(
            "held by    dev.vtscope.workloads.SharedLockPinning.withMonitor  synchronized block")
        .contains("SharedLockPinning.sleep")
        .doesNotContain("\u001b[");
  }

  @Test
  void stackDepthShowsWholeStacksOrAsManyFramesAsAskedButNeverHidesTheNamedOnes() {
    String recording = sample("jdk21/pinning-synchronized.jfr").toString();
    long shortFrames = frameLines(Cli.run("analyze", recording).out());
    Cli.Result all = Cli.run("analyze", "--stack-depth", "all", recording);
    assertThat(all.exitCode()).isZero();
    assertThat(all.out()).doesNotContain("more frame");
    assertThat(frameLines(all.out())).isGreaterThan(shortFrames);
    assertThat(Cli.run("analyze", recording).out()).contains("(--stack-depth all shows them)");

    // fewer than the named frames: the holder and the frame that waited are still there
    String two = Cli.run("analyze", "--stack-depth", "2", recording).out();
    assertThat(two)
        .contains("<- holds the carrier (synchronized block)")
        .contains("> at dev.vtscope.workloads.SharedLockPinning.sleep(");

    Cli.Result bad = Cli.run("analyze", "--stack-depth", "deep", recording);
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err().lines()).hasSize(1);
    assertThat(bad.err()).contains("--stack-depth takes a number of frames");
  }

  @Test
  void aClassPathEntryThatDoesNotExistIsAUsageError() {
    String recording = sample("jdk21/pinning-synchronized.jfr").toString();
    Path missing = dir.resolve("no-such.jar");
    Cli.Result result = Cli.run("analyze", "--classpath", missing.toString(), recording);
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().lines()).hasSize(1);
    assertThat(result.err()).contains(missing.toString()).contains("no such file or folder");
    assertThat(result.out()).isEmpty();
    Cli.Result wildcard =
        Cli.run("analyze", "--classpath", dir.resolve("lib").resolve("*").toString(), recording);
    assertThat(wildcard.exitCode()).isEqualTo(2);
    assertThat(wildcard.err()).contains(dir.resolve("lib").toString());
  }

  private static long frameLines(String report) {
    return report.lines().filter(l -> l.startsWith("     at ") || l.startsWith("   > at ")).count();
  }

  @Test
  void outsideATerminalStackFramesAreWholeAndWidthControlsWrapping() {
    String recording = sample("jdk21/class-init.jfr").toString();
    String piped = Cli.run("analyze", recording).out();
    // A frame with its marker is longer than 120 columns: kept whole, not cut with an ellipsis.
    assertThat(piped.lines())
        .anySatisfy(
            line ->
                assertThat(line)
                    .hasSizeGreaterThan(120)
                    .contains("SlowInit.<clinit>(ClassInitPinning.java:")
                    .endsWith("<- holds the carrier (class initialiser)"));
    assertThat(piped).doesNotContain("…\n");
    String unwrapped = Cli.run("analyze", "--width", "0", recording).out();
    assertThat(unwrapped.lines().count()).isLessThan(piped.lines().count());
    String narrow = Cli.run("analyze", "--width", "60", recording).out();
    // Text wraps at 60 columns; only a single word too long for a line (a class name), after its
    // label if it has one, passes it.
    String oneWord = "\\s*(\\S+( \\S+)?\\s{2,})?\\S+";
    assertThat(narrow.lines().filter(l -> !l.contains(" at ") && l.length() > 60))
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).matches(oneWord));
    assertThat(narrow.lines().count()).isGreaterThan(piped.lines().count());
    // At the narrowest width too; no line ends in spaces (a label whose value went to the next
    // line), and the header's values go on under where they start.
    String narrowest = Cli.run("analyze", "--width", "40", recording).out();
    assertThat(narrowest.lines().filter(l -> !l.contains(" at ") && l.length() > 40))
        .allSatisfy(line -> assertThat(line).matches(oneWord));
    assertThat(narrowest.lines()).noneMatch(l -> l.endsWith(" "));
    // wrapping moves words, never joins, splits or drops one
    java.util.List<String> words = java.util.List.of(unwrapped.strip().split("\\s+"));
    assertThat(java.util.List.of(narrowest.strip().split("\\s+"))).isEqualTo(words);
    assertThat(java.util.List.of(narrow.strip().split("\\s+"))).isEqualTo(words);
    assertThat(narrowest).containsPattern("\\n  recording   \\S[^\\n]*\\n {14}\\S");
    Cli.Result bad = Cli.run("analyze", "--width", "10", recording);
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err().strip())
        .startsWith("vtscope analyze: --width must be")
        .doesNotContain("\n");
  }

  @Test
  void groupingByStackMatchesLambdaFramesAcrossRuns() throws Exception {
    // Two runs of one program: its lambda's hidden class gets another name suffix in each.
    Path java = TestRecordings.jdk21Java();
    Path first =
        TestRecordings.recordWorkload(
            java, "0ms", "pinning-per-task", "--tasks", "6", "--hold", "5ms");
    Path second =
        TestRecordings.recordWorkload(
            java, "0ms", "pinning-per-task", "--tasks", "7", "--hold", "5ms");
    Cli.Result result =
        Cli.run(
            "analyze",
            "--format",
            "json",
            "--group-by",
            "stack",
            first.toString(),
            second.toString());
    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode sites = MAPPER.readTree(result.out()).at("/pinned/sites");
    assertThat(sites).hasSize(1);
    assertThat(sites.get(0).get("events").asLong()).isEqualTo(13);
    assertThat(sites.get(0).get("key").asText()).contains("PerTaskPinning$$Lambda.run()");
  }

  @Test
  void hiddenClassAddressesAreLeftOutOfStableNames() {
    assertThat(
            dev.vtscope.recording.Frame.stableClassName(
                "a.Foo$$Lambda+0x0000000800143800.1471086700"))
        .isEqualTo("a.Foo$$Lambda");
    assertThat(dev.vtscope.recording.Frame.stableClassName("a.Foo$$Lambda.0x0000000045048428"))
        .isEqualTo("a.Foo$$Lambda");
    assertThat(dev.vtscope.recording.Frame.stableClassName("a.Foo$$Lambda/0x0000000045048428"))
        .isEqualTo("a.Foo$$Lambda");
    assertThat(dev.vtscope.recording.Frame.stableClassName("a.Foo$Bar")).isEqualTo("a.Foo$Bar");
  }

  @Test
  void groupByReasonOnJdk21GroupsByCulpritAndSaysSo() throws Exception {
    Cli.Result result =
        Cli.run(
            "analyze",
            "--format",
            "json",
            "--group-by",
            "reason",
            sample("jdk21/class-init.jfr").toString());
    assertThat(result.exitCode()).isZero();
    JsonNode json = MAPPER.readTree(result.out());
    assertThat(json.at("/pinned/sites/0/key").asText())
        .startsWith("CLASS_INIT dev.vtscope.workloads.ClassInitPinning$SlowInit.<clinit>");
    assertThat(json.at("/notes").findValuesAsText("id")).contains("no-pinned-reason");
  }

  @Test
  void aMergedReportSaysWhichRecordingEachFigureComesFrom() throws Exception {
    Cli.Result result =
        Cli.run(
            "analyze",
            "--format",
            "json",
            sample("jdk21/class-init.jfr").toString(),
            sample("jdk21/pinning-synchronized.jfr").toString());
    assertThat(result.exitCode()).isZero();
    JsonNode notes = MAPPER.readTree(result.out()).at("/notes");
    // Thresholds 20 ms and 0 ms; the shared lock held both carriers, class init one.
    String settings = messageOf(notes, "merged-settings");
    assertThat(settings)
        .contains(
            "threshold 20 ms, stack depth 256 in 1 recording (" + sample("jdk21/class-init.jfr"))
        .contains(
            "threshold 0 ms, stack depth 256 in 1 recording ("
                + sample("jdk21/pinning-synchronized.jfr"))
        .endsWith("the settings line shows those of " + sample("jdk21/class-init.jfr") + ".");
    assertThat(messageOf(notes, "merged-carriers"))
        .contains("held at once in " + sample("jdk21/pinning-synchronized.jfr"));
    assertThat(notes.findValuesAsText("id")).doesNotContain("merged-scheduler");

    JsonNode single =
        MAPPER.readTree(
            Cli.run("analyze", "--format", "json", sample("jdk21/class-init.jfr").toString())
                .out());
    assertThat(single.at("/notes").findValuesAsText("id"))
        .noneMatch(id -> id.startsWith("merged-"));
  }

  @Test
  void recordingsThatHeldNoCarrierAreNotNamedAsTheOneThatHeldMost() throws Exception {
    Cli.Result result =
        Cli.run(
            "analyze",
            "--format",
            "json",
            sample("jdk25/sleep-fanout.jfr").toString(),
            sample("jdk25/pinning-synchronized.jfr").toString());
    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode notes = MAPPER.readTree(result.out()).at("/notes");
    assertThat(messageOf(notes, "merged-carriers"))
        .endsWith("(no recording held a carrier).")
        .doesNotContain("held at once in");
    for (JsonNode note : notes) {
      if (note.get("id").asText().equals("merged-carriers")) {
        assertThat(note.at("/figures").has("worst")).isFalse();
      }
    }
  }

  private static String messageOf(JsonNode notes, String id) {
    for (JsonNode note : notes) {
      if (note.get("id").asText().equals(id)) {
        return note.get("message").asText();
      }
    }
    throw new AssertionError("no note " + id + " in " + notes);
  }

  @Test
  void jsonCarriesTheContractFields() throws Exception {
    Cli.Result result =
        Cli.run("analyze", "--format", "json", sample("jdk25/class-init.jfr").toString());
    assertThat(result.exitCode()).isZero();
    JsonNode json = MAPPER.readTree(result.out());
    assertThat(json.at("/schemaVersion").asInt()).isEqualTo(2);
    assertThat(json.at("/jvm/feature").asInt()).isEqualTo(25);
    assertThat(json.at("/scheduler/parallelism/set").asBoolean()).isFalse();
    assertThat(json.at("/pinned/events").asLong()).isPositive();
    assertThat(json.at("/pinned/sites/0/reason").asText()).isNotBlank();
    assertThat(json.at("/pinned/sites/0/totalNanos").isIntegralNumber()).isTrue();
    long sum = 0;
    for (JsonNode site : json.at("/pinned/sites")) {
      sum += site.get("totalNanos").asLong();
    }
    assertThat(sum).isEqualTo(json.at("/pinned/totalNanos").asLong());
  }

  @Test
  void groupByReasonSeparatesTheClassInitReasons() throws Exception {
    Cli.Result result =
        Cli.run(
            "analyze",
            "--format",
            "json",
            "--group-by",
            "reason",
            sample("jdk25/class-init.jfr").toString());
    JsonNode json = MAPPER.readTree(result.out());
    assertThat(json.at("/groupBy").asText()).isEqualTo("reason");
    assertThat(json.at("/pinned/sites").findValuesAsText("key"))
        .anySatisfy(k -> assertThat(k).startsWith("VM call to ").contains("<clinit>"))
        .anySatisfy(k -> assertThat(k).startsWith("Waited for initialization of"));
  }

  @Test
  void severalFilesAndFoldersMakeOneReportListingEachInput() throws Exception {
    Files.copy(sample("jdk21/pinning-synchronized.jfr"), dir.resolve("a.jfr"));
    Files.copy(sample("jdk25/class-init.jfr"), dir.resolve("b.jfr"));
    Cli.Result merged = Cli.run("analyze", "--format", "json", dir.toString());
    JsonNode json = MAPPER.readTree(merged.out());
    assertThat(json.at("/inputs")).hasSize(2);
    long a = events(sample("jdk21/pinning-synchronized.jfr"));
    long b = events(sample("jdk25/class-init.jfr"));
    assertThat(json.at("/pinned/events").asLong()).isEqualTo(a + b);
    assertThat(json.get("notes").toString()).contains("mixed-jdks");
    // Thread ids are per JVM: merging two recordings must not merge their threads.
    long threads = 0;
    for (JsonNode site : json.at("/pinned/sites")) {
      threads += site.get("virtualThreads").asLong();
    }
    assertThat(threads).isEqualTo(json.at("/pinned/virtualThreads").asLong());
  }

  @Test
  void aJfrRepositoryFolderIsOneRecording() throws Exception {
    // one JVM's recording of three chunks, split into files as the JVM's disk repository holds it
    Path chunked = dir.resolve("chunked.jfr");
    try (jdk.jfr.Recording recording =
        new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("default"))) {
      recording.setDestination(chunked);
      recording.start();
      for (int i = 0; i < 2; i++) {
        try (jdk.jfr.Recording rotate = new jdk.jfr.Recording()) {
          rotate.start(); // makes the JVM begin a new chunk
          rotate.stop();
        }
      }
      recording.stop();
    }
    Path repos = dir.resolve("repository");
    Path repo = Files.createDirectories(repos.resolve("2026_11_22_10_00_00_4242"));
    byte[] bytes = Files.readAllBytes(chunked);
    var chunks = dev.vtscope.recording.ChunkScanner.scan(chunked).chunks();
    assertThat(chunks).hasSizeGreaterThan(1);
    for (var chunk : chunks) {
      Files.write(
          repo.resolve(String.format("2026_11_22_10_00_%02d.jfr", chunk.index())),
          java.util.Arrays.copyOfRange(
              bytes, (int) chunk.fileOffset(), (int) (chunk.fileOffset() + chunk.size())));
    }
    JsonNode json = MAPPER.readTree(Cli.run("analyze", "--format", "json", repos.toString()).out());
    assertThat(json.at("/inputs")).hasSize(1);
    assertThat(json.at("/inputs/0/files").asInt()).isEqualTo(chunks.size());
    assertThat(json.at("/inputs/0/chunks").asInt()).isEqualTo(chunks.size());
  }

  @Test
  void helpSaysWhereTheExitCodesAre() {
    Cli.Result result = Cli.run("analyze", "--help");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).contains("Exit codes: vtscope help exit-codes").contains("--group-by");
    assertThat(Cli.run("help", "exit-codes").out()).contains("3  an input cannot be read");
  }

  @Test
  void theReadmeDocumentsEveryExitCode() throws Exception {
    String readme = Files.readString(TestRecordings.repoRoot().resolve("README.md"));
    for (ExitCode code : ExitCode.values()) {
      assertThat(readme)
          .as("README row for exit code " + code.code())
          .contains("| " + code.code() + " |");
    }
  }

  @Test
  void noPinningIsSaidPlainly() throws Exception {
    JsonNode json =
        MAPPER.readTree(
            Cli.run(
                    "analyze",
                    "--format",
                    "json",
                    sample("jdk25/pinning-synchronized.jfr").toString())
                .out());
    assertThat(json.at("/pinned/events").asLong()).isZero();
    assertThat(json.get("notes").findValuesAsText("id")).contains("no-pinning");
    assertThat(json.get("monitorEnter").isNull()).isTrue();
  }

  private static long events(Path file) throws Exception {
    return MAPPER
        .readTree(Cli.run("analyze", "--format", "json", file.toString()).out())
        .at("/pinned/events")
        .asLong();
  }

  @Test
  void aRecordingOnStandardInputFromAFileOrAPipeGivesTheSameReport() throws Exception {
    Path sample = sample("jdk21/pinning-synchronized.jfr");
    String direct = Cli.run("analyze", "--format", "json", sample.toString()).out();
    Cli.Result redirected =
        Cli.child(b -> b.redirectInput(sample.toFile()), null, "analyze", "--format", "json", "-");
    Cli.Result piped =
        Cli.child(b -> {}, Files.readAllBytes(sample), "analyze", "--format", "json", "-");
    for (Cli.Result r : java.util.List.of(redirected, piped)) {
      assertThat(r.exitCode()).as(r.err()).isZero();
      JsonNode json = MAPPER.readTree(r.out());
      assertThat(json.at("/inputs/0/path").asText()).isEqualTo("-");
      assertThat(json.at("/pinned")).isEqualTo(MAPPER.readTree(direct).at("/pinned"));
    }
    // nothing piped in holds no recording, as an empty file does: the same exit code
    Cli.Result empty = Cli.child(b -> {}, new byte[0], "analyze", "-");
    assertThat(empty.exitCode()).isEqualTo(ExitCode.NOT_A_RECORDING.code());
    assertThat(empty.err().strip()).isEqualTo("vtscope analyze: -: standard input is empty");
    // not a recording: named as the user named it, not by the temporary copy
    Cli.Result junk = Cli.child(b -> {}, "not a recording\n".getBytes(), "analyze", "-");
    assertThat(junk.exitCode()).isEqualTo(ExitCode.NOT_A_RECORDING.code());
    assertThat(junk.err())
        .startsWith("vtscope analyze: -: not a JFR recording")
        .doesNotContain("/tmp");
  }

  /** {@code vtscope analyze <(cat vt.jfr)}: the pipe a shell names for a process substitution. */
  @Test
  void aProcessSubstitutionOfTheShellIsReadAsARecording() throws Exception {
    Path sample = sample("jdk21/pinning-synchronized.jfr");
    String direct = Cli.run("analyze", "--format", "json", sample.toString()).out();
    Process bash =
        new ProcessBuilder(
                "bash",
                "-c",
                "exec \"$0\" -cp \"$1\" dev.vtscope.cli.VtScope analyze --format json <(cat"
                    + " \"$2\")",
                TestRecordings.currentJava().toString(),
                System.getProperty("java.class.path"),
                sample.toString())
            .start();
    var err =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> Cli.text(bash.getErrorStream()));
    String out = Cli.text(bash.getInputStream());
    assertThat(bash.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).as(err.get()).isZero();
    JsonNode json = MAPPER.readTree(out);
    assertThat(json.at("/inputs/0/path").asText()).startsWith("/dev/fd/");
    assertThat(json.at("/pinned")).isEqualTo(MAPPER.readTree(direct).at("/pinned"));
  }

  @Test
  void aFolderIsReadWithoutItsSubFoldersUnlessAsked() throws Exception {
    Path top = Files.createDirectories(dir.resolve("recordings"));
    Path nested = Files.createDirectories(top.resolve("2026-11/host-a"));
    Files.copy(sample("jdk21/pinning-synchronized.jfr"), nested.resolve("a.jfr"));
    Cli.Result flat = Cli.run("analyze", top.toString());
    assertThat(flat.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(flat.err()).contains("its sub-folders hold 1: add --recursive");
    Files.copy(sample("jdk25/class-init.jfr"), top.resolve("b.jfr"));
    Cli.Result recursive = Cli.run("analyze", "--recursive", top.toString());
    assertThat(recursive.exitCode()).as(recursive.err()).isZero();
    assertThat(recursive.out()).contains("merged      2 recordings from 2 folders");
    JsonNode json = MAPPER.readTree(Cli.run("analyze", "--format", "json", top.toString()).out());
    assertThat(json.at("/inputs")).hasSize(1);
  }

  @Test
  void analyseIsAnAliasAndATypoGetsASuggestion() {
    Cli.Result alias =
        Cli.run("analyse", "--format", "json", sample("jdk21/class-init.jfr").toString());
    assertThat(alias.exitCode()).as(alias.err()).isZero();
    Cli.Result typo = Cli.run("analize", "x.jfr");
    assertThat(typo.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(typo.err()).contains("did you mean 'analyze'?").doesNotContain("'analyse'");
    Cli.Result option = Cli.run("analyze", "--formt", "json", "x.jfr");
    assertThat(option.err()).contains("did you mean '--format'?");
  }
}
