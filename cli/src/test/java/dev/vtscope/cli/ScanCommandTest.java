package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vtscope scan} run as a user runs it: inputs, formats, --fail-on and bad input. */
class ScanCommandTest {

  @TempDir Path dir;

  private static Path workloads() {
    try {
      return Path.of(
          dev.vtscope.workloads.Workloads.class
              .getProtectionDomain()
              .getCodeSource()
              .getLocation()
              .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The workloads as a jar, whether the build gives them as one or as a folder. */
  private Path workloadsJar() throws IOException {
    Path code = workloads();
    if (Files.isRegularFile(code)) {
      return code;
    }
    Path jar = dir.resolve("vtscope-workloads.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out);
        Stream<Path> files = Files.walk(code)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        zip.putNextEntry(new JarEntry(code.relativize(f).toString().replace('\\', '/')));
        zip.write(Files.readAllBytes(f));
        zip.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void theWorkloadsJarsPinsAreListedRiskiestFirstWithTheirChains() throws IOException {
    Cli.Result r = Cli.run("scan", workloadsJar().toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .startsWith("vtscope scan: ")
        .contains("HIGH   dev.vtscope.workloads.ConnectionPoolStall$MonitorPool.checkout()")
        .contains("-> java.lang.Object.wait  wait")
        .contains("dev.vtscope.workloads.SharedLockPinning.withMonitor(Duration) lines 90-92")
        .contains("pins on JDK 21-23");
    assertThat(r.out().indexOf("HIGH")).isLessThan(r.out().indexOf("MEDIUM"));
  }

  @Test
  void aFatJarsNestedJarsAreScannedInPlaceAndFailOnFailsTheBuild() throws IOException {
    Path fat = dir.resolve("app.jar");
    try (OutputStream out = Files.newOutputStream(fat);
        JarOutputStream zip = new JarOutputStream(out)) {
      zip.putNextEntry(new JarEntry("BOOT-INF/lib/vtscope-workloads-1.0.jar"));
      zip.write(Files.readAllBytes(workloadsJar()));
      zip.closeEntry();
    }
    Path json = dir.resolve("scan.json");
    Cli.Result r =
        Cli.run(
            "scan", fat.toString(), "--format", "json", "-o", json.toString(), "--fail-on", "high");
    assertThat(r.exitCode()).isEqualTo(ExitCode.CHECK_FAILED.code());
    assertThat(r.err()).containsPattern("vtscope scan: \\d+ findings? reached --fail-on high");
    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    assertThat(doc.path("counts").path("high").asInt()).isPositive();
    JsonNode first = doc.path("findings").get(0);
    assertThat(first.path("severity").asText()).isEqualTo("high");
    assertThat(first.path("location").asText())
        .endsWith("!/BOOT-INF/lib/vtscope-workloads-1.0.jar");
    assertThat(first.path("chain").size()).isGreaterThanOrEqualTo(2);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("nothing unpacked beside the jar")
          .isSubsetOf("app.jar", "scan.json", "vtscope-workloads.jar");
    }
  }

  @Test
  void aClassPathFileAsMavenWritesItAndAQuotedGlobAreRead() throws IOException {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.copy(workloadsJar(), lib.resolve("workloads.jar"));
    Path cp = dir.resolve("cp.txt");
    Files.writeString(cp, lib.resolve("workloads.jar") + java.io.File.pathSeparator);
    Cli.Result fromFile =
        Cli.run("scan", "--classpath-file", cp.toString(), "--format", "markdown");
    assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
    assertThat(fromFile.out()).startsWith("## vtscope scan").contains("| high ");
    Cli.Result glob = Cli.run("scan", lib + "/*", "--fail-on", "none");
    assertThat(glob.exitCode()).isZero();
    assertThat(glob.out()).contains("ConnectionPoolStall$MonitorPool.checkout");
  }

  @Test
  void callsOfListsEachCallWithTheMonitorsHeldThere() throws IOException {
    String pinning = "dev.vtscope.workloads.SharedLockPinning.";
    Cli.Result r =
        Cli.run(
            "scan",
            workloadsJar().toString(),
            "--calls-of",
            pinning + "withMonitor",
            "--calls-of",
            pinning + "withSynchronizedMethod",
            "--calls-of",
            pinning + "withLock",
            "--calls-of",
            pinning + "noSuchMethod",
            "--calls-of",
            "no.such.Type.run");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains(
            "calls of "
                + pinning
                + "withMonitor:\n  withMonitor(Duration) in "
                + workloadsJar()
                + "\n     line 91 "
                + pinning
                + "sleep(Duration)  in a synchronized block; blocks: sleep")
        .contains(
            "withSynchronizedMethod(Duration) synchronized in "
                + workloadsJar()
                + "\n     line 96 "
                + pinning
                + "sleep(Duration)  in the synchronized method; blocks: sleep")
        .contains(pinning + "sleep(Duration)  outside any monitor; blocks: sleep")
        .contains("  no method noSuchMethod in " + workloadsJar())
        .contains("calls of no.such.Type.run: no class no.such.Type in the class path");

    Cli.Result json =
        Cli.run(
            "scan",
            workloadsJar().toString(),
            "--format",
            "json",
            "--calls-of",
            pinning + "withLock");
    JsonNode listing = new ObjectMapper().readTree(json.out()).path("callsOf").get(0);
    assertThat(listing.path("method").asText()).isEqualTo("withLock");
    JsonNode overload = listing.path("classFiles").get(0).path("overloads").get(0);
    assertThat(overload.path("synchronized").asBoolean()).isFalse();
    assertThat(overload.path("monitorEnter").asBoolean()).isFalse();
    JsonNode sleep = null;
    for (JsonNode call : overload.path("calls")) {
      if (call.path("name").asText().equals("sleep")) {
        sleep = call;
      }
    }
    assertThat(sleep).isNotNull();
    assertThat(sleep.path("monitors").asInt()).isZero();
    assertThat(sleep.path("blocking").asText()).isEqualTo("SLEEP");

    Cli.Result bad = Cli.run("scan", workloadsJar().toString(), "--calls-of", "nodot");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(bad.err().strip()).startsWith("vtscope scan: --calls-of").doesNotContain("\n");
  }

  @Test
  void badInputIsOneLineWithItsExitCode() throws IOException {
    Cli.Result missing = Cli.run("scan", dir.resolve("nope.jar").toString());
    assertThat(missing.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(missing.err().strip()).startsWith("vtscope scan: no such file").doesNotContain("\n");
    Path text = Files.writeString(dir.resolve("notes.jar"), "not a jar");
    Cli.Result damaged = Cli.run("scan", text.toString());
    assertThat(damaged.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(damaged.err().strip())
        .startsWith("vtscope scan: no class files in")
        .doesNotContain("\n");
    // a folder of jars is no class folder: the message says how to name its jars
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.copy(workloadsJar(), lib.resolve("workloads.jar"));
    Cli.Result folder = Cli.run("scan", lib.toString());
    assertThat(folder.exitCode()).isEqualTo(ExitCode.INPUT_UNREADABLE.code());
    assertThat(folder.err().strip())
        .isEqualTo(
            "vtscope scan: no class files in "
                + lib
                + "; it holds 1 jar: give '"
                + lib.resolve("*")
                + "' to scan them");
    assertThat(Cli.run("scan", lib.resolve("*").toString()).exitCode()).isZero();
    Cli.Result none = Cli.run("scan");
    assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE.code());
    Cli.Result depth = Cli.run("scan", "--depth", "0", text.toString());
    assertThat(depth.exitCode()).isEqualTo(ExitCode.USAGE.code());
  }

  @Test
  void aDamagedJarBesideGoodOnesIsSkippedWithANote() throws IOException {
    Path text = Files.writeString(dir.resolve("broken.jar"), "not a jar");
    Cli.Result r = Cli.run("scan", workloadsJar().toString(), text.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("! skipped " + text + ": not readable");
  }
}
