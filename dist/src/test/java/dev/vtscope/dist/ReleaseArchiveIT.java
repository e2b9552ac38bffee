package dev.vtscope.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import dev.vtscope.dist.UnpackedArchive.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user meets it: unpacked into an empty folder, run through a link to its
 * launcher from another folder, on a PATH with neither Maven nor Java, with no checkout around.
 */
class ReleaseArchiveIT {

  @TempDir static Path dir;
  private static UnpackedArchive archive;
  private static Path basicPath;
  private static Path home;
  private static Path launcher;
  private static final String JAVA_HOME = System.getProperty("java.home");

  @BeforeAll
  static void unpack() throws Exception {
    archive = UnpackedArchive.unpack(Files.createDirectories(dir.resolve("unpacked")));
    basicPath = UnpackedArchive.basicPath(dir);
    home = Files.createDirectories(dir.resolve("home"));
    // as a user links it into a folder on PATH
    launcher = Files.createDirectories(home.resolve(".local/bin")).resolve("vtscope");
    Files.createSymbolicLink(launcher, archive.root().resolve("bin/vtscope"));
  }

  private static Map<String, String> env(String... more) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", basicPath.toString());
    env.put("HOME", home.toString());
    for (int i = 0; i < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private static Run vtscope(Map<String, String> env, String... args) throws Exception {
    return UnpackedArchive.run(
        home, env, Stream.concat(Stream.of(launcher.toString()), Stream.of(args)).toList());
  }

  private static List<String> filesOf(Path folder) throws Exception {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.map(folder::relativize).map(Path::toString).sorted().toList();
    }
  }

  /**
   * Without JAVA_HOME, the launcher finds the JDK in the install folders, and the first analysis
   * makes the class-data archive for it in the user's cache, never in the unpacked folder; later
   * runs map it and answer the same.
   */
  @Test
  void analyzesFindingTheJdkAndKeepsItsClassArchiveInTheUsersCache() throws Exception {
    List<String> unpacked = filesOf(archive.root());
    String sample = archive.root().resolve("samples/jdk21/pinning-synchronized.jfr").toString();
    Map<String, String> found = env("VTSCOPE_JDK_DIRS", Path.of(JAVA_HOME).getParent().toString());

    Run first = vtscope(found, "analyze", sample);
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("Pinned sites").contains("SharedLockPinning");
    assertThat(first.err()).isEmpty();

    Path cache = home.resolve(".cache/vtscope");
    List<String> cached = filesOf(cache);
    assertThat(cached.stream().filter(f -> !f.isEmpty() && !f.endsWith(".jsa")))
        .as("one folder for this unpacked copy")
        .singleElement();
    assertThat(cached.stream().filter(f -> f.endsWith(".jsa"))).singleElement();
    assertThat(filesOf(archive.root())).as("the unpacked folder as it was").isEqualTo(unpacked);

    // -Xshare:on makes the JVM fail when it cannot map the archive the launcher names
    Run mapped =
        vtscope(env("JAVA_HOME", JAVA_HOME, "VTSCOPE_JAVA_OPTS", "-Xshare:on"), "analyze", sample);
    assertThat(mapped.code()).as(mapped.err()).isZero();
    assertThat(mapped.out()).isEqualTo(first.out());
  }

  @Test
  void namesItsVersionAndBuild() throws Exception {
    Run version = vtscope(env("JAVA_HOME", JAVA_HOME), "--version");
    assertThat(version.code()).as(version.err()).isZero();
    assertThat(version.out())
        .startsWith("vtscope " + UnpackedArchive.version() + " (commit ")
        .containsPattern("built \\d{4}-\\d\\d-\\d\\dT");
  }

  @Test
  void recordsAWorkloadShippedInTheJar() throws Exception {
    Path recording = dir.resolve("pinning.jfr");
    Run record =
        vtscope(
            env("JAVA_HOME", JAVA_HOME),
            "record",
            "--workload",
            "pinning",
            "--out",
            recording.toString(),
            "--",
            "--tasks",
            "30");
    assertThat(record.code()).as(record.err()).isZero();
    assertThat(recording).isNotEmptyFile();
    assertThat(record.out()).contains("vtscope: virtual-thread pinning report");
  }

  /** The archive's jar holds the workloads: one that deadlocks, and stays so, is watched. */
  @Test
  void watchesARunningJvm() throws Exception {
    Path log = dir.resolve("workload.log");
    Process target =
        new ProcessBuilder(
                Path.of(JAVA_HOME, "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                archive.root().resolve("lib/vtscope.jar").toString(),
                "dev.vtscope.workloads.Workloads",
                "deadlock")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      String pid = String.valueOf(target.pid());
      // deadlocked once it says so, and attachable once it has published itself
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.readString(log).startsWith("ready:")
          || VirtualMachine.list().stream().noneMatch(vm -> vm.id().equals(pid))) {
        assertThat(target.isAlive()).as(Files.readString(log)).isTrue();
        assertThat(System.nanoTime()).as("the workload was never ready").isLessThan(deadline);
        Thread.sleep(100);
      }
      Run watch =
          vtscope(
              env("JAVA_HOME", JAVA_HOME),
              "watch",
              "--pid",
              pid,
              "--interval",
              "1s",
              "--duration",
              "2s");
      assertThat(watch.code()).as(watch.err()).isZero();
      assertThat(watch.out()).containsPattern("(?m)^ +\\d+s  pinned \\d+");
      assertThat(watch.err()).contains("vtscope watch: watching pid " + pid);
    } finally {
      target.destroyForcibly();
      target.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void itsCompletionIsTheOneItShips() throws Exception {
    Run completion = vtscope(env("JAVA_HOME", JAVA_HOME), "completion", "bash");
    assertThat(completion.code()).as(completion.err()).isZero();
    assertThat(completion.out())
        .contains("complete -F")
        .isEqualTo(Files.readString(archive.root().resolve("completions/vtscope.bash")));
    for (String shell : List.of("zsh", "fish")) {
      Run other = vtscope(env("JAVA_HOME", JAVA_HOME), "completion", shell);
      assertThat(other.out())
          .isEqualTo(Files.readString(archive.root().resolve("completions/vtscope." + shell)));
    }
  }

  /** man renders the archive's pages with groff, as it would from MANPATH. */
  @Test
  void itsManPagesRender() throws Exception {
    Run man =
        UnpackedArchive.run(
            home,
            Map.of(
                "PATH",
                "/usr/bin:/bin",
                "HOME",
                home.toString(),
                "MANPAGER",
                "cat",
                "MANWIDTH",
                "100"),
            List.of("man", "-M", archive.root().resolve("man").toString(), "vtscope-analyze"));
    assertThat(man.code()).as(man.err()).isZero();
    assertThat(man.out()).contains("vtscope analyze [OPTIONS] FILE...").contains("EXIT STATUS");
  }
}
