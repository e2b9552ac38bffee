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
 * {@code PATH}, then the folders of {@code tools/jdk-folders} (the usual install folders of Linux
 * and macOS, SDKMAN, IntelliJ, asdf, and the JDK 21 runtime {@code ./run-tests} installs under
 * vtscope's own {@code .jdks}), a list the launcher's {@code tools/find-jdk.sh} reads too and the
 * jar carries; {@code VTSCOPE_JDK_DIRS} replaces it.
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
    homes.addAll(folders());
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

  /** The folders that may hold a runtime, in order: those of the list, patterns expanded. */
  public List<Path> folders() {
    String override = env.get("VTSCOPE_JDK_DIRS");
    List<String> patterns =
        override != null && !override.isBlank()
            ? List.of(override.split(java.io.File.pathSeparator)).stream()
                .filter(folder -> !folder.isEmpty())
                // a JDK itself, or a folder of JDKs
                .map(
                    folder ->
                        Files.isExecutable(Path.of(folder, "bin", "java")) ? folder : folder + "/*")
                .toList()
            : FOLDERS;
    Path home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
    List<Path> folders = new ArrayList<>();
    for (String pattern : patterns) {
      String expanded = pattern;
      if (expanded.startsWith("~/")) {
        expanded = home + expanded.substring(1);
      } else if (expanded.startsWith("{vtscope}/")) {
        if (vtscopeHome == null) {
          continue;
        }
        expanded = vtscopeHome + expanded.substring("{vtscope}".length());
      }
      folders.addAll(expand(expanded));
    }
    return folders;
  }

  /** The list of {@code tools/jdk-folders}, as the jar carries it. */
  private static final List<String> FOLDERS = readFolders();

  private static List<String> readFolders() {
    try (var in = JdkLocator.class.getResourceAsStream("jdk-folders")) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks dev/vtscope/record/jdk-folders");
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The existing folders an absolute pattern names: each {@code *} matches part of one file name,
   * as the shell's globs do; sorted by name where a pattern matches several.
   */
  static List<Path> expand(String pattern) {
    if (!pattern.startsWith("/")) {
      return List.of();
    }
    List<Path> current = List.of(Path.of("/"));
    for (String segment : pattern.substring(1).split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      List<Path> next = new ArrayList<>();
      for (Path dir : current) {
        if (!segment.contains("*")) {
          Path child = dir.resolve(segment);
          if (Files.exists(child)) {
            next.add(child);
          }
          continue;
        }
        var matcher = dir.getFileSystem().getPathMatcher("glob:" + segment);
        List<Path> matched = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
          for (Path child : children) {
            if (matcher.matches(child.getFileName())) {
              matched.add(child);
            }
          }
        } catch (IOException | UncheckedIOException e) {
          // an unreadable folder holds no runtime we can use
        }
        matched.sort(null);
        next.addAll(matched);
      }
      current = next;
    }
    return current.stream().filter(Files::isDirectory).toList();
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
