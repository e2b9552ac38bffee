package dev.vtscope.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The ./vtscope launcher as a user meets it, after the jar is packaged: where the default java is
 * too old and JAVA_HOME is unset it finds a JDK 21+ in the install folders; where there is none it
 * says in one line what it found and what to do. Its cases run side by side, as a user's runs may
 * (each starts JVMs and waits for them), but for one that runs alone.
 */
@Execution(ExecutionMode.CONCURRENT)
class LauncherIT {

  /** The lock of a case that runs alone; the others hold it to read, side by side. */
  private static final String ALONE = "LauncherIT alone";

  @TempDir Path dir;

  /** A folder with a fake java 17 that answers like the real one, first on PATH. */
  private Path fakeJava17() throws IOException {
    Path jdk = Files.createDirectories(dir.resolve("jdk-17/bin"));
    Files.writeString(jdk.getParent().resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
    Path java = jdk.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.15\"' >&2\nexit 0\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return jdk;
  }

  private record Run(int code, String out, String err) {}

  private Run launcher(Map<String, String> env, String... args) throws Exception {
    Path root = TestRecordings.repoRoot();
    return launcher(root.resolve("vtscope"), root, env, args);
  }

  /** Runs the launcher at {@code script} (a link to it, say) in the folder {@code in}. */
  private Run launcher(Path script, Path in, Map<String, String> env, String... args)
      throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
            java.util.stream.Stream.concat(
                    java.util.stream.Stream.of("bash", script.toString()),
                    java.util.Arrays.stream(args))
                .toList());
    builder.directory(in.toFile());
    builder.environment().remove("JAVA_HOME");
    builder.environment().put("HOME", dir.toString());
    builder.environment().putAll(env);
    builder.redirectOutput(dir.resolve("out.txt").toFile());
    builder.redirectError(dir.resolve("err.txt").toFile());
    Process process = builder.start();
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).isTrue();
    return new Run(
        process.exitValue(),
        Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  @Test
  @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
  void findsAJdk21PlusInTheInstallFoldersWhenTheDefaultJavaIsTooOld() throws Exception {
    Path fake = fakeJava17();
    // The JDK running this test stands for one installed in the usual folder.
    Path installFolder = Path.of(System.getProperty("java.home")).getParent();
    // No class-data archive: making one is the archive cases' concern, and takes seconds of CPU.
    Run run =
        launcher(
            Map.of(
                "PATH",
                fake + ":" + System.getenv("PATH"),
                "VTSCOPE_JDK_DIRS",
                installFolder.toString(),
                "VTSCOPE_CDS",
                "off"),
            "analyze",
            "samples/jdk21/pinning-synchronized.jfr");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("Pinned sites").contains("SharedLockPinning");
  }

  @Test
  @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
  void saysWhatItFoundWhenNoJdk21Exists() throws Exception {
    Path fake = fakeJava17();
    Run run =
        launcher(
            Map.of(
                "PATH",
                fake + ":/usr/bin:/bin",
                "VTSCOPE_JDK_DIRS",
                dir.resolve("none").toString()),
            "--version");
    assertThat(run.code()).isEqualTo(9);
    List<String> lines = run.err().lines().toList();
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).contains("java 17 at " + fake.resolve("java")).contains("JAVA_HOME");
    assertThat(run.out()).isEmpty();
  }

  /**
   * Through a link to the launcher, from another folder, with the only JDK 21+ in a folder whose
   * name has a space and whose release file has Windows line ends, and a version without a dot.
   */
  @Test
  @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
  void runsThroughALinkAndFindsAJdkInAFolderWithASpace() throws Exception {
    Path fake = fakeJava17();
    Path jdk = Files.createDirectories(dir.resolve("my jdks/jdk-" + Runtime.version().feature()));
    Files.createDirectories(jdk.resolve("bin"));
    Files.createSymbolicLink(
        jdk.resolve("bin/java"), Path.of(System.getProperty("java.home"), "bin", "java"));
    Files.writeString(
        jdk.resolve("release"),
        "IMPLEMENTOR=\"test\"\r\nJAVA_VERSION=\"" + Runtime.version().feature() + "\"\r\n");
    Path link = Files.createDirectories(dir.resolve("links")).resolve("vtscope");
    Files.createSymbolicLink(link, TestRecordings.repoRoot().resolve("vtscope"));
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");

    Run run =
        launcher(
            link,
            dir,
            Map.of(
                "PATH",
                fake + ":/usr/bin:/bin",
                "VTSCOPE_JDK_DIRS",
                dir.resolve("my jdks").toString()),
            "analyze",
            sample.toString());

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).contains("SharedLockPinning");
  }

  /**
   * A folder of class-data archives of the test's own, which the launcher makes: a test that checks
   * what is in it runs beside the others, which use the checkout's cli/target/cds.
   */
  private Path ownArchives() {
    return dir.resolve("cds");
  }

  @Test
  @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
  void aFailedFirstRunMakesNoArchiveAndTheUsersCollectorAndHeapWin() throws Exception {
    Path cds = ownArchives();
    String javaHome = System.getProperty("java.home");

    Run failed =
        launcher(
            Map.of("JAVA_HOME", javaHome, "VTSCOPE_CDS_DIR", cds.toString()),
            "analyze",
            dir.resolve("none.jfr").toString());
    assertThat(failed.code()).isEqualTo(3);
    try (var files = Files.list(cds)) {
      assertThat(files.toList())
          .as("no archive of a run that read nothing, no files left")
          .isEmpty();
    }

    Run own =
        launcher(
            Map.of(
                "JAVA_HOME",
                javaHome,
                "VTSCOPE_CDS_DIR",
                cds.toString(),
                "VTSCOPE_JAVA_OPTS",
                "-XX:+UseParallelGC -Xmx64m"),
            "analyze",
            "samples/jdk21/pinning-synchronized.jfr");
    assertThat(own.code()).as(own.out() + own.err()).isZero();
    assertThat(own.out()).contains("SharedLockPinning");
  }

  @Test
  @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
  void anExhaustedHeapIsOneLineWithItsExitCode() throws Exception {
    String javaHome = System.getProperty("java.home");
    Run starved =
        launcher(
            Map.of("JAVA_HOME", javaHome, "VTSCOPE_JAVA_OPTS", "-Xmx2m", "VTSCOPE_CDS", "off"),
            "analyze",
            "samples/jdk21/pinning-synchronized.jfr");
    assertThat(starved.code()).as(starved.err()).isEqualTo(10);
    assertThat(starved.err().strip())
        .startsWith("vtscope analyze: out of memory:")
        .contains("VTSCOPE_JAVA_OPTS=-Xmx")
        .doesNotContain("\n")
        .doesNotContain("Exception");
  }

  /**
   * Runs alone, the other cases before or after it: whether a JDK lambda comes from the archive
   * depends on which of vtscope's two threads links it first, and with other JVMs busy beside it
   * the lambdas asserted on below were at times made anew.
   */
  @Test
  @ResourceLock(ALONE)
  void archivesTheClassesOfTheFirstAnalysisAndAnswersTheSameWithTheArchive() throws Exception {
    Path cds = ownArchives();
    String sample = "samples/jdk21/pinning-synchronized.jfr";
    String javaHome = System.getProperty("java.home");
    Map<String, String> env = Map.of("JAVA_HOME", javaHome, "VTSCOPE_CDS_DIR", cds.toString());

    // A help ends with 0 too, but an archive of its classes would leave out the analysis's.
    Run help = launcher(env, "analyze", "--help");
    assertThat(help.code()).as(help.err()).isZero();
    try (var files = Files.list(cds)) {
      assertThat(files.toList())
          .as("no archive, nor a mark, of a run that analysed nothing")
          .isEmpty();
    }

    Run first = launcher(env, "analyze", "--format", "json", sample);
    assertThat(first.code()).as(first.err()).isZero();
    try (var files = Files.list(cds)) {
      assertThat(files.map(f -> f.getFileName().toString()).toList())
          .as("the archive, and nothing else left behind")
          .singleElement()
          .satisfies(name -> assertThat(name).endsWith(".jsa"));
    }
    // -Xshare:on makes the JVM fail when it cannot map the archive the launcher names.
    Run mapped =
        launcher(
            with(env, "VTSCOPE_JAVA_OPTS", "-Xshare:on"), "analyze", "--format", "json", sample);
    assertThat(mapped.code()).as(mapped.err()).isZero();
    // The archive holds the classes of the common analyses, not only of the one that made it.
    Run loaded = launcher(with(env, "VTSCOPE_JAVA_OPTS", "-Xlog:class+load"), "check", sample);
    assertThat(loaded.out())
        .as("the analysis's classes come from the archive")
        .contains("dev.vtscope.analysis.Analyzer source: shared objects file")
        .contains("dev.vtscope.cli.CheckCommand source: shared objects file")
        .contains("dev.vtscope.report.TextReport source: shared objects file");
    // A lambda the archive cannot keep (one that implements a picocli interface, or a serializable
    // one such as Comparator.comparing makes) is made anew before every command. When vtscope's two
    // threads link one call site at once, the first takes the archive's class and the other makes
    // a twin, which the call site then drops (seen with the machine loaded: one ReferencePipeline
    // lambda from the archive, a new one 2 ms later): a lambda made anew counts as archived only
    // as such a twin, after as many of its class's lambdas came from the archive.
    Map<String, Integer> archived = new java.util.HashMap<>();
    List<String> madeAnew = new java.util.ArrayList<>();
    for (String l :
        loaded
            .out()
            .lines()
            .filter(l -> l.contains("[class,load]") && l.contains("$$Lambda"))
            .toList()) {
      String host = l.substring(l.indexOf("] ") + 2, l.indexOf("$$Lambda"));
      if (l.endsWith("source: shared objects file")) {
        archived.merge(host, 1, Integer::sum);
      } else if (archived.getOrDefault(host, 0) > 0) {
        archived.merge(host, -1, Integer::sum);
      } else {
        madeAnew.add(l);
      }
    }
    assertThat(madeAnew).as("lambdas made at start-up, in:\n" + loaded.out()).isEmpty();
    Run without = launcher(with(env, "VTSCOPE_CDS", "off"), "analyze", "--format", "json", sample);
    assertThat(without.code()).as(without.err()).isZero();
    assertThat(mapped.out()).isEqualTo(first.out()).isEqualTo(without.out());
    assertThat(mapped.err()).isEqualTo(first.err()).isEqualTo(without.err()).isEmpty();
  }

  /** {@code env} and one more variable. */
  private static Map<String, String> with(Map<String, String> env, String name, String value) {
    Map<String, String> more = new java.util.HashMap<>(env);
    more.put(name, value);
    return more;
  }
}
