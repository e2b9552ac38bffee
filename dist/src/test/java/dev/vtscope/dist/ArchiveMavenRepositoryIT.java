package dev.vtscope.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.dist.UnpackedArchive.Run;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive's Maven repository as a build uses it: a new project points a repository at {@code
 * file://.../maven} and takes the JUnit extension, or the agent, from it. Its Maven has a local
 * repository of its own, so nothing lands in this build's; the rest (JUnit, the plugins, Jackson)
 * it copies from this build's local repository, named as its Maven Central, so that no network is
 * needed.
 */
class ArchiveMavenRepositoryIT {

  @TempDir static Path dir;
  private static UnpackedArchive archive;
  private static Path settings;
  private static int agentPort;
  private static Run build;

  @BeforeAll
  static void unpack() throws Exception {
    archive = UnpackedArchive.unpack(Files.createDirectories(dir.resolve("unpacked")));
    Path shared = Path.of(System.getProperty("vtscope.mavenRepository"));
    settings = dir.resolve("settings.xml");
    Files.writeString(
        settings,
        """
        <settings>
          <localRepository>%s</localRepository>
          <mirrors>
            <mirror>
              <id>this-build</id>
              <mirrorOf>central</mirrorOf>
              <url>%s</url>
            </mirror>
          </mirrors>
        </settings>
        """
            .formatted(dir.resolve("repository"), shared.toUri()));
    try (ServerSocket free = new ServerSocket(0)) {
      agentPort = free.getLocalPort();
    }
    build = build(agentPort);
    // the extension fails its project's test on purpose
    assertThat(build.code()).as(build.out()).isNotZero();
  }

  /**
   * The projects of src/test/projects, in a new folder, pointed at the archive, built in one Maven
   * run that goes on past the failure of the first.
   */
  private static Run build(int agentPort) throws Exception {
    Path from = Path.of(System.getProperty("vtscope.projects"));
    Path to = dir.resolve("projects");
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.writeString(
              target,
              Files.readString(file)
                  .replace(
                      "@vtscope.repository@", archive.root().resolve("maven").toUri().toString())
                  .replace("@vtscope.version@", UnpackedArchive.version())
                  .replace("@junit.version@", System.getProperty("vtscope.junitVersion"))
                  .replace("@agent.port@", String.valueOf(agentPort)));
        }
      }
    }
    Path mvn = Path.of(System.getProperty("vtscope.mavenHome"), "bin", "mvn");
    return UnpackedArchive.run(
        to,
        Map.of(
            "PATH", "/usr/bin:/bin",
            "HOME", dir.toString(),
            "JAVA_HOME", System.getProperty("java.home")),
        List.of(mvn.toString(), "-B", "-ntp", "-fae", "-s", settings.toString(), "test"));
  }

  private static Path fromTheArchive(String artifact) {
    String version = UnpackedArchive.version();
    return dir.resolve("repository/dev/vtscope")
        .resolve(artifact)
        .resolve(version)
        .resolve(artifact + "-" + version + ".jar");
  }

  /**
   * A test whose virtual threads race to initialise a slow class: the extension, taken from the
   * archive, fails it and names the initialiser.
   */
  @Test
  void theJUnitExtensionFailsAPinningTest() throws Exception {
    assertThat(build.out()).doesNotContain("Could not validate integrity");
    assertThat(build.out())
        .containsPattern("uses-vtscope-junit \\.+ FAILURE")
        .contains("Tests run: 1, Failures: 1")
        .contains("vtscope: Virtual threads pinned their carriers while the test ran")
        .contains("com.example.LazyCatalogTest$Catalog.<clinit> holds the carrier");
    assertThat(fromTheArchive("vtscope-junit"))
        .hasSameBinaryContentAs(
            archive
                .root()
                .resolve(
                    "maven/dev/vtscope/vtscope-junit/"
                        + UnpackedArchive.version()
                        + "/vtscope-junit-"
                        + UnpackedArchive.version()
                        + ".jar"));
  }

  /** A test run with -javaagent: the agent's jar from the archive serves the test JVM's metrics. */
  @Test
  void theAgentServesTheTestJvmsMetrics() throws Exception {
    assertThat(build.out()).containsPattern("uses-vtscope-agent \\.+ SUCCESS");
    assertThat(build.out() + build.err())
        .contains(
            "vtscope-agent: serving OpenMetrics on http://127.0.0.1:" + agentPort + "/metrics")
        .contains("Tests run: 1, Failures: 0, Errors: 0");
    assertThat(fromTheArchive("vtscope-agent"))
        .hasSameBinaryContentAs(archive.root().resolve("lib/vtscope-agent.jar"));
  }
}
