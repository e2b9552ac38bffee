package dev.vtscope.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.dist.UnpackedArchive.Run;
import java.io.IOException;
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
  }

  /** The project of src/test/projects/NAME, in a new folder, pointed at the archive. */
  private static Path project(String name, Map<String, String> values) throws IOException {
    Path from = Path.of(System.getProperty("vtscope.projects")).resolve(name);
    Path to = dir.resolve(name);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          String text =
              Files.readString(file)
                  .replace(
                      "@vtscope.repository@", archive.root().resolve("maven").toUri().toString())
                  .replace("@vtscope.version@", UnpackedArchive.version())
                  .replace("@junit.version@", System.getProperty("vtscope.junitVersion"));
          for (Map.Entry<String, String> value : values.entrySet()) {
            text = text.replace("@" + value.getKey() + "@", value.getValue());
          }
          Files.writeString(target, text);
        }
      }
    }
    return to;
  }

  private static Run mvn(Path project) throws Exception {
    Path mvn = Path.of(System.getProperty("vtscope.mavenHome"), "bin", "mvn");
    return UnpackedArchive.run(
        project,
        Map.of(
            "PATH", "/usr/bin:/bin",
            "HOME", dir.toString(),
            "JAVA_HOME", System.getProperty("java.home")),
        List.of(mvn.toString(), "-B", "-ntp", "-s", settings.toString(), "test"));
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
    Run build = mvn(project("junit", Map.of()));
    assertThat(build.code()).as(build.out()).isNotZero();
    assertThat(build.out()).doesNotContain("Could not validate integrity");
    assertThat(build.out())
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
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Run build = mvn(project("agent", Map.of("agent.port", String.valueOf(port))));
    assertThat(build.code()).as(build.out()).isZero();
    assertThat(build.out() + build.err())
        .contains("vtscope-agent: serving OpenMetrics on http://127.0.0.1:" + port + "/metrics")
        .contains("Tests run: 1, Failures: 0, Errors: 0");
    assertThat(fromTheArchive("vtscope-agent"))
        .hasSameBinaryContentAs(archive.root().resolve("lib/vtscope-agent.jar"));
  }
}
