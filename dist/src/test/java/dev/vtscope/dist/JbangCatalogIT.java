package dev.vtscope.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.dist.UnpackedArchive.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jbang-catalog.json of this checkout, run by jbang (from Maven Central, on this test's class path)
 * as {@code jbang vtscope@OWNER/REPO} runs it once jbang has fetched the catalog: the alias names
 * the command line's jar by its coordinates, which jbang takes from the release archive's Maven
 * repository here (Maven Central for a published version).
 */
class JbangCatalogIT {

  @TempDir static Path dir;
  private static UnpackedArchive archive;
  private static final Path CATALOG =
      Path.of(System.getProperty("vtscope.repoRoot"), "jbang-catalog.json");

  @BeforeAll
  static void unpack() throws Exception {
    archive = UnpackedArchive.unpack(Files.createDirectories(dir.resolve("unpacked")));
  }

  /**
   * Runs {@code vtscope@CATALOG ARGS} with jbang. jbang prints the java command to run and exits
   * with 255, which its launcher script then runs (exec): so does this.
   */
  private static Run jbang(String... args) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Map<String, String> env =
        Map.of(
            "PATH", "/usr/bin:/bin",
            "HOME", dir.toString(),
            "JAVA_HOME", System.getProperty("java.home"),
            // jbang's own folder and its local Maven repository, not the user's
            "JBANG_DIR", dir.resolve("jbang").toString(),
            "JBANG_REPO", dir.resolve("jbang-repository").toString());
    List<String> command =
        new ArrayList<>(
            List.of(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.jbang.Main",
                "--repos",
                "vtscope=" + archive.root().resolve("maven").toUri(),
                "vtscope@" + CATALOG));
    command.addAll(List.of(args));
    Run resolved = UnpackedArchive.run(dir, env, command);
    assertThat(resolved.code()).as(resolved.err()).isEqualTo(255);
    String line = resolved.out().strip();
    assertThat(line).as(resolved.err()).contains(" dev.vtscope.cli.VtScope");
    return UnpackedArchive.run(dir, env, List.of("bash", "-c", "exec " + line));
  }

  @Test
  void theCatalogsAliasRunsTheCommandLineOfThisVersion() throws Exception {
    assertThat(Files.readString(CATALOG))
        .contains("\"script-ref\": \"dev.vtscope:vtscope:" + UnpackedArchive.version() + "\"");

    Run analyze =
        jbang(
            "analyze", archive.root().resolve("samples/jdk21/pinning-synchronized.jfr").toString());
    assertThat(analyze.code()).as(analyze.err()).isZero();
    assertThat(analyze.out()).contains("SharedLockPinning");
    assertThat(analyze.err()).isEmpty();
  }
}
