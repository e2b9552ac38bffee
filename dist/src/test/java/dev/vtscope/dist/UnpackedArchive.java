package dev.vtscope.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The release archive this build made, unpacked into a folder as a user unpacks it, and the
 * programs run from it.
 */
final class UnpackedArchive {

  /** What a program printed and how it ended. */
  record Run(int code, String out, String err) {}

  private final Path root;

  private UnpackedArchive(Path root) {
    this.root = root;
  }

  /** Unpacks the build's tar.gz into {@code into} with tar, as a user would. */
  static UnpackedArchive unpack(Path into) throws Exception {
    Path archive = Path.of(System.getProperty("vtscope.archive"));
    assertThat(archive).isRegularFile();
    Run tar = run(into, Map.of(), List.of("tar", "xzf", archive.toString(), "-C", into.toString()));
    assertThat(tar.code()).as(tar.err()).isZero();
    Path root = into.resolve("vtscope-" + version());
    assertThat(root).isDirectory();
    return new UnpackedArchive(root);
  }

  static String version() {
    return System.getProperty("vtscope.version");
  }

  Path root() {
    return root;
  }

  /**
   * Runs {@code command} in {@code in} with only {@code env} (and nothing of this JVM's
   * environment, its PATH included), its output kept in files beside it.
   */
  static Run run(Path in, Map<String, String> env, List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(in.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    Path out = Files.createTempFile(in, "out-", ".txt");
    Path err = Files.createTempFile(in, "err-", ".txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    if (!process.waitFor(600, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not end");
    }
    try {
      return new Run(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.delete(out);
      Files.delete(err);
    }
  }

  /**
   * A folder for PATH holding links to the few programs a shell script needs, and not mvn nor java:
   * what the archive's launcher runs, it must find without them.
   */
  static Path basicPath(Path dir) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("basic-bin"));
    List<String> missing = new ArrayList<>();
    for (String tool :
        List.of(
            "bash",
            "env",
            "dirname",
            "readlink",
            "mkdir",
            "mv",
            "rm",
            "grep",
            "sed",
            "head",
            "cat",
            "uname",
            "tail")) {
      Path found = null;
      for (String folder : List.of("/usr/bin", "/bin")) {
        if (Files.isExecutable(Path.of(folder, tool))) {
          found = Path.of(folder, tool);
          break;
        }
      }
      if (found == null) {
        missing.add(tool);
      } else {
        Files.createSymbolicLink(bin.resolve(tool), found);
      }
    }
    assertThat(missing).as("programs missing on this machine").isEmpty();
    return bin;
  }
}
