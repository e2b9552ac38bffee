package dev.vtscope.attribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Finds class files in a class path (jars and folders) and, for JDK classes, in the running JDK's
 * runtime image when it is the release that made the recording (bytecode indexes differ between
 * releases). Jars are opened once and kept open until {@link #close()}.
 */
public final class ClassBytesSource implements AutoCloseable {

  private final List<Path> entries;
  private final int jdkImageFeature;
  private final Map<Path, ZipFile> openJars = new HashMap<>();

  /**
   * @param entries jars and folders, searched in order
   * @param recordingFeature the JDK feature release of the recording; JDK classes are read from the
   *     running JDK only when it is the same release
   */
  public ClassBytesSource(List<Path> entries, int recordingFeature) {
    this.entries = withManifestClassPaths(entries);
    this.jdkImageFeature = recordingFeature == Runtime.version().feature() ? recordingFeature : -1;
  }

  /**
   * The entries, each jar followed by the jars its manifest's {@code Class-Path} names (as {@code
   * java -jar app.jar} and build tools' launcher jars use them), each entry once.
   */
  private static List<Path> withManifestClassPaths(List<Path> entries) {
    java.util.LinkedHashSet<Path> result = new java.util.LinkedHashSet<>();
    java.util.ArrayDeque<Path> pending = new java.util.ArrayDeque<>(entries);
    while (!pending.isEmpty()) {
      Path entry = pending.poll().toAbsolutePath().normalize();
      if (!result.add(entry) || Files.isDirectory(entry) || !Files.isRegularFile(entry)) {
        continue;
      }
      try (java.util.jar.JarFile jar = new java.util.jar.JarFile(entry.toFile())) {
        java.util.jar.Manifest manifest = jar.getManifest();
        String classPath =
            manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
        if (classPath == null) {
          continue;
        }
        List<Path> referenced = new ArrayList<>();
        for (String url : classPath.trim().split("\\s+")) {
          Path resolved = resolveManifestEntry(entry, url);
          if (resolved != null && Files.exists(resolved)) {
            referenced.add(resolved);
          }
        }
        // Referenced jars come right after the jar that names them, in their order.
        for (int i = referenced.size() - 1; i >= 0; i--) {
          pending.addFirst(referenced.get(i));
        }
      } catch (IOException | RuntimeException e) {
        // not a jar vtscope can open: it adds nothing
      }
    }
    return List.copyOf(result);
  }

  private static Path resolveManifestEntry(Path jar, String url) {
    try {
      java.net.URI base = jar.getParent().toUri();
      java.net.URI uri = base.resolve(url);
      return "file".equals(uri.getScheme()) ? Path.of(uri) : null;
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      return null;
    }
  }

  /** An empty source: finds nothing. */
  public static ClassBytesSource none() {
    return new ClassBytesSource(List.of(), -1);
  }

  /**
   * A recording's {@code java.class.path} and {@code user.dir} (which relative entries are relative
   * to), as its system properties give them; either may be null.
   */
  public record RecordedClassPath(String classPath, String workingDirectory) {}

  /**
   * The class files an analysis can read: {@code userClassPath} first ({@code lib/*} means every
   * jar in lib), then each recording's class path where its files exist on this machine, then
   * vtscope's own code, which holds the workloads that made the samples.
   */
  public static ClassBytesSource of(
      List<Path> userClassPath, List<RecordedClassPath> recorded, int recordingFeature) {
    List<Path> entries = new ArrayList<>();
    for (Path entry : userClassPath) {
      entries.addAll(expand(entry.toString(), null));
    }
    for (RecordedClassPath r : recorded) {
      Path base = null;
      if (r.workingDirectory() != null) {
        try {
          base = Path.of(r.workingDirectory());
        } catch (java.nio.file.InvalidPathException e) {
          base = null;
        }
      }
      try {
        entries.addAll(expand(r.classPath(), base));
      } catch (java.nio.file.InvalidPathException e) {
        // a class path of another operating system: nothing of it is here
      }
    }
    ownCode().ifPresent(entries::add);
    return new ClassBytesSource(entries, recordingFeature);
  }

  /** Where vtscope's workloads are: its own jar, or their classes folder in a build. */
  private static java.util.Optional<Path> ownCode() {
    java.net.URL url =
        ClassBytesSource.class
            .getClassLoader()
            .getResource("dev/vtscope/workloads/Workloads.class");
    try {
      if (url == null) {
        return java.util.Optional.empty();
      }
      if ("jar".equals(url.getProtocol())) {
        String file = url.getFile(); // file:/…/vtscope.jar!/dev/vtscope/workloads/Workloads.class
        return java.util.Optional.of(
            Path.of(new java.net.URI(file.substring(0, file.indexOf("!/")))));
      }
      Path classFile = Path.of(url.toURI());
      return java.util.Optional.of(classFile.getParent().getParent().getParent().getParent());
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /** Expands a class path string ({@code a.jar:lib/*:classes}) relative to {@code base}. */
  public static List<Path> expand(String classPath, Path base) {
    List<Path> result = new ArrayList<>();
    if (classPath == null || classPath.isBlank()) {
      return result;
    }
    for (String part : classPath.split(java.io.File.pathSeparator)) {
      if (part.isBlank()) {
        continue;
      }
      Path path = base == null ? Path.of(part) : base.resolve(part);
      if (part.endsWith("*")) {
        Path dir = path.getParent();
        if (dir != null && Files.isDirectory(dir)) {
          try (var files = Files.list(dir)) {
            files.filter(f -> f.toString().endsWith(".jar")).sorted().forEach(result::add);
          } catch (IOException | UncheckedIOException e) {
            // an unreadable folder adds nothing
          }
        }
      } else if (Files.exists(path)) {
        result.add(path);
      }
    }
    return result;
  }

  /** Finds {@code className} (binary name with dots). */
  public Optional<ClassBytes> find(String className) {
    if (className.contains("/") || className.contains("$$Lambda") || className.startsWith("[")) {
      return Optional.empty(); // hidden classes have no class file
    }
    String resource = className.replace('.', '/') + ".class";
    for (Path entry : entries) {
      Optional<ClassBytes> found =
          Files.isDirectory(entry) ? fromFolder(entry, resource) : fromJar(entry, resource);
      if (found.isPresent()) {
        return found;
      }
    }
    if (jdkImageFeature > 0) {
      try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(resource)) {
        if (in != null) {
          return Optional.of(new ClassBytes(in.readAllBytes(), null));
        }
      } catch (IOException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static Optional<ClassBytes> fromFolder(Path folder, String resource) {
    Path file = folder.resolve(resource);
    try {
      return Files.isRegularFile(file)
          ? Optional.of(new ClassBytes(Files.readAllBytes(file), null))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private Optional<ClassBytes> fromJar(Path jar, String resource) {
    ZipFile zip = openJars.computeIfAbsent(jar, ClassBytesSource::open);
    if (zip == null) {
      return Optional.empty();
    }
    ZipEntry entry = zip.getEntry(resource);
    if (entry == null) {
      return Optional.empty();
    }
    try (InputStream in = zip.getInputStream(entry)) {
      return Optional.of(new ClassBytes(in.readAllBytes(), jar));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static ZipFile open(Path jar) {
    try {
      return new ZipFile(jar.toFile());
    } catch (IOException e) {
      return null;
    }
  }

  /** Closes the jars it opened. */
  @Override
  public void close() {
    for (ZipFile zip : openJars.values()) {
      if (zip != null) {
        try {
          zip.close();
        } catch (IOException e) {
          // closing a read-only jar cannot lose anything
        }
      }
    }
    openJars.clear();
  }
}
