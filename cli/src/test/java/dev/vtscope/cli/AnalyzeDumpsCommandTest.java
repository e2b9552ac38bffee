package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.threaddump.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vtscope analyze} given thread dumps. */
class AnalyzeDumpsCommandTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  private static String sample(String path) {
    return Samples.root().resolve(path).toString();
  }

  @Test
  void aJsonDumpIsReportedAsItsThreadsWaits() {
    Cli.Result r = Cli.run("analyze", sample("jdk25/semaphore-fan-out/dump-to-file.json"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("vtscope: what the threads wait for")
        .contains(
            "20 virtual threads park in Semaphore.acquire at SemaphoreFanOut.lambda$main$0:27")
        .contains("5 virtual threads wait to read a socket");
  }

  @Test
  void theJsonFormIsTheWaitsDocument() throws IOException {
    Cli.Result r =
        Cli.run("analyze", "--format", "json", sample("jdk21.0.8/lock-cycle/dump-to-file.json"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode doc = MAPPER.readTree(r.out());
    assertThat(doc.get("schemaVersion").asInt()).isEqualTo(1);
    assertThat(doc.get("dumps").get(0).get("jdkFeature").asInt()).isEqualTo(21);
    assertThat(doc.get("waits").findValuesAsText("kind")).contains("lock");
  }

  @Test
  void aFolderOfOneJvmsDumpsIsASeries() throws IOException {
    for (int i = 1; i <= 3; i++) {
      Files.copy(
          Samples.root().resolve("jdk25/semaphore-series/dump-" + i + ".json"),
          dir.resolve("dump-" + i + ".json"));
    }
    Files.writeString(dir.resolve("notes.txt"), "taken by hand\n");
    Cli.Result r = Cli.run("analyze", dir.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("over 3 dumps")
        .contains("20 → 20 → 20")
        .contains("stuck for at least");
    // what the folder holds besides dumps is said, once, and the rest read
    assertThat(r.err().lines()).singleElement().asString().contains("notes.txt: skipped");
  }

  @Test
  void aThreadPrintTakenWithAJsonDumpCompletesIt() throws IOException {
    Path json = dir.resolve("threads.json");
    Path printed = dir.resolve("threads.txt");
    Files.copy(Samples.root().resolve("jdk21.0.8/class-init-cycle/dump-to-file.json"), json);
    Files.copy(Samples.root().resolve("jdk21.0.8/class-init-cycle/thread-print.txt"), printed);
    FileTime now = FileTime.from(Instant.now());
    Files.setLastModifiedTime(json, now);
    Files.setLastModifiedTime(printed, now);
    Cli.Result r = Cli.run("analyze", json.toString(), printed.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains(json + " + " + printed)
        .contains("1 virtual thread waits for a class's initialisation");
  }

  @Test
  void aDumpCutShortIsReportedInPartWithANote() throws IOException {
    byte[] whole = Files.readAllBytes(Samples.root().resolve("jdk25/lock-cycle/dump-to-file.json"));
    Path cut = dir.resolve("cut.json");
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 2));
    Cli.Result r = Cli.run("analyze", cut.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().replaceAll("\\s+", " ")).contains("cut short: read in part");
    assertThat(r.out()).contains("Notes").contains("the JSON breaks off after");
  }

  @Test
  void jstackTakenWithAJsonDumpCompletesItThoughItNamesNoPid() throws IOException {
    Path json = dir.resolve("threads.json");
    Path jstack = dir.resolve("jstack.txt");
    Files.copy(Samples.root().resolve("jdk25/platform-cycle/dump-to-file.json"), json);
    Files.copy(Samples.root().resolve("jdk25/platform-cycle/jstack.txt"), jstack);
    FileTime now = FileTime.from(Instant.now());
    Files.setLastModifiedTime(json, now);
    Files.setLastModifiedTime(jstack, now);
    Cli.Result r = Cli.run("analyze", json.toString(), jstack.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains(json + " + " + jstack)
        .contains("1 platform thread blocks entering a monitor");
  }

  @Test
  void dumpsAndRecordingsTogetherAreRefusedInOneLine() {
    Path recording = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    Cli.Result r =
        Cli.run("analyze", sample("jdk25/lock-cycle/dump-to-file.json"), recording.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).startsWith("vtscope analyze: ").contains("analyze them in separate calls");
  }

  @Test
  void dumpsOfTwoJvmsAreNoSeries() {
    Cli.Result r =
        Cli.run(
            "analyze",
            sample("jdk25/lock-cycle/dump-to-file.json"),
            sample("jdk25/monitor-cycle/dump-to-file.json"));
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).contains("the dumps are of 2 JVMs").contains("a series is of one JVM");
  }

  @Test
  void formatsWithoutAFormForDumpsAreRefusedInOneLine() {
    Cli.Result r =
        Cli.run("analyze", "--format", "openmetrics", sample("jdk25/lock-cycle/dump-to-file.json"));
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err())
        .startsWith("vtscope analyze: --format openmetrics")
        .contains("thread dumps are reported as text, json, markdown or html");
  }

  @Test
  void htmlOfADumpIsOnePageOfItsWaits() {
    Cli.Result r =
        Cli.run("analyze", "--format", "html", sample("jdk25/lock-cycle/dump-to-file.json"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .startsWith("<!DOCTYPE html>")
        .contains("\"kind\":\"dumps\"")
        .contains("park in ReentrantLock.lock")
        .doesNotContain("/*VTSCOPE_DATA*/");
  }

  @Test
  void aDumpCutBeforeItsFirstThreadSaysSoAndNoMore() throws IOException {
    Path empty = dir.resolve("empty.json");
    Files.writeString(empty, "{\"threadDump\": ");
    Cli.Result r = Cli.run("analyze", empty.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("none: the dump lists no threads")
        .contains("the JSON breaks off after 0 threads")
        .doesNotContain("JDK 21's JSON");
  }

  @Test
  void aFileThatIsNeitherARecordingNorADumpIsRefusedInOneLine() throws IOException {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "not a dump\n");
    Cli.Result r = Cli.run("analyze", text.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCode.NOT_A_RECORDING.code());
    assertThat(r.err().lines()).hasSize(1);
  }
}
