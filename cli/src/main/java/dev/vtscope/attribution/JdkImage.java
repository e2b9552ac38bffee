package dev.vtscope.attribution;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The class files of an installed JDK, read from its runtime image: another JDK's by {@link
 * JimageFile}, the running one's (and any image that reader does not know) through the {@code jrt}
 * file system, which opens any JDK's modules, not only those of the JDK running vtscope. JDK frames
 * are checked against the class files of the release that made the recording: bytecode indexes, and
 * so the ranges of synchronized blocks, differ between releases.
 */
final class JdkImage implements AutoCloseable {

  private final Path home;
  private final String version;
  private final int feature;
  private FileSystem modules;
  private boolean unreadable;
  private JimageFile image;
  private boolean imageOpened;
  private Boolean readable;
  private final Map<String, java.util.List<String>> modulesOfPackage = new HashMap<>();

  private JdkImage(Path home, String version, int feature) {
    this.home = home;
    this.version = version;
    this.feature = feature;
  }

  /** The JDK at {@code home}, from its {@code release} file; empty when it is no runtime image. */
  static Optional<JdkImage> at(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release) || !Files.isRegularFile(home.resolve("lib/modules"))) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(release)) {
      properties.load(in);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
    String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "").trim();
    int feature = feature(version);
    return feature < 9 ? Optional.empty() : Optional.of(new JdkImage(home, version, feature));
  }

  /** The feature release of a version such as {@code 21.0.8}, or -1. */
  static int feature(String version) {
    if (version == null) {
      return -1;
    }
    int end = 0;
    while (end < version.length() && Character.isDigit(version.charAt(end))) {
      end++;
    }
    try {
      return end == 0 ? -1 : Integer.parseInt(version.substring(0, end));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  Path home() {
    return home;
  }

  /** The release, as its {@code release} file states it, e.g. {@code 21.0.8}. */
  String version() {
    return version;
  }

  int feature() {
    return feature;
  }

  /**
   * Whether its class files can be read: {@code java.lang.Object}'s, looked up once. A JDK whose
   * image is damaged (cut short, overwritten) answers no, and is not used.
   */
  boolean readable() {
    if (readable == null) {
      readable = find("java.lang.Object").isPresent();
    }
    return readable;
  }

  /** The class file of {@code className} (binary name with dots), if this JDK has it. */
  Optional<byte[]> find(String className) {
    try {
      return lookUp(className);
    } catch (RuntimeException e) {
      // the jrt file system of a damaged image throws what it likes (InvalidPathException,
      // IllegalArgumentException from a buffer): nothing more is read from it
      unreadable = true;
      return Optional.empty();
    }
  }

  private Optional<byte[]> lookUp(String className) {
    JimageFile image = image();
    if (image != null) {
      JimageFile.Lookup lookup = image.classFile(className);
      if (lookup.readable()) {
        return lookup.bytes();
      }
    }
    FileSystem fs = modules();
    if (fs == null) {
      return Optional.empty();
    }
    int dot = className.lastIndexOf('.');
    String pkg = dot < 0 ? "" : className.substring(0, dot);
    for (String module : modulesOfPackage.computeIfAbsent(pkg, p -> modules(fs, p))) {
      Path file = fs.getPath("/modules", module, className.replace('.', '/') + ".class");
      try {
        if (Files.isRegularFile(file)) {
          return Optional.of(Files.readAllBytes(file));
        }
      } catch (IOException | RuntimeException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * The modules the image lists under /packages for {@code pkg}: usually one, sometimes more (the
   * class is looked for in each).
   */
  private static java.util.List<String> modules(FileSystem fs, String pkg) {
    java.util.List<String> result = new java.util.ArrayList<>();
    Path dir = fs.getPath("/packages", pkg);
    if (pkg.isEmpty() || !Files.isDirectory(dir)) {
      return result;
    }
    try (DirectoryStream<Path> modules = Files.newDirectoryStream(dir)) {
      for (Path module : modules) {
        result.add(module.getFileName().toString());
      }
    } catch (IOException | RuntimeException e) {
      return result;
    }
    return result;
  }

  /**
   * The image read by vtscope itself, for a JDK other than the running one (whose {@code jrt} file
   * system is open already); null when it is the running one or one this reader does not know.
   */
  private JimageFile image() {
    if (!imageOpened) {
      imageOpened = true;
      if (!isRunning()) {
        image = JimageFile.open(home.resolve("lib/modules")).orElse(null);
      }
    }
    return image;
  }

  private FileSystem modules() {
    if (modules != null || unreadable) {
      return modules;
    }
    try {
      modules =
          isRunning()
              ? FileSystems.getFileSystem(URI.create("jrt:/"))
              : FileSystems.newFileSystem(
                  URI.create("jrt:/"), Map.of("java.home", home.toString()));
    } catch (IOException | RuntimeException e) {
      unreadable = true; // an image this JDK cannot open: it has nothing to give
    }
    return modules;
  }

  private boolean isRunning() {
    try {
      return home.toRealPath().equals(Path.of(System.getProperty("java.home")).toRealPath());
    } catch (IOException e) {
      return false;
    }
  }

  /** Closes the image when it was opened for this analysis (the running JDK's stays open). */
  @Override
  public void close() {
    if (image != null) {
      image.close();
      image = null;
    }
    imageOpened = false;
    if (modules != null && !isRunning()) {
      try {
        modules.close();
      } catch (IOException | UnsupportedOperationException e) {
        // a read-only image: nothing is lost
      }
    }
    modules = null;
  }
}
