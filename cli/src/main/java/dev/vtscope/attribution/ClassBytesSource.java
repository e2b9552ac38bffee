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
 * Finds class files in a class path (jars and folders) and, for JDK classes, in the runtime image
 * of an installed JDK of the release that made the recording (bytecode indexes differ between
 * releases): the same update when one is installed, else another update of the same feature release
 * (the attribution then uses only classes whose line numbers agree with the recording). The JDK
 * running vtscope is one of the candidates, found first. Jars and images are opened once and kept
 * open until {@link #close()}.
 */
public final class ClassBytesSource implements AutoCloseable {

  /** Package prefixes of the JDK's own classes. */
  private static final List<String> JDK_PACKAGES =
      List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

  private final List<Path> entries;
  private boolean userClassPathGiven;
  private final String recordingVersion;
  private final int recordingFeature;
  private final java.util.function.Supplier<List<Path>> jdkHomes;
  private final Map<Path, ZipFile> openJars = new HashMap<>();
  private JdkImage jdk;
  private boolean jdkChosen;
  private boolean jdkClassRead;
  private final List<Path> unreadableJdks = new ArrayList<>();
  private boolean jdkClassMissing;
  private JdkMonitorTable jdkTable;

  /**
   * @param entries jars and folders, searched in order
   * @param recordingVersion the recording's Java version (e.g. {@code 21.0.8+9-LTS}), or null
   * @param recordingFeature the JDK feature release of the recording, or 0 when unknown (then JDK
   *     classes are not read)
   * @param jdkHomes installed JDKs to look in for the recording's release, asked only when a JDK
   *     class is needed
   */
  public ClassBytesSource(
      List<Path> entries,
      String recordingVersion,
      int recordingFeature,
      java.util.function.Supplier<List<Path>> jdkHomes) {
    this.entries = withManifestClassPaths(entries);
    this.recordingVersion = recordingVersion;
    this.recordingFeature = recordingFeature;
    this.jdkHomes = jdkHomes;
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
    return new ClassBytesSource(List.of(), null, 0, List::of);
  }

  /**
   * A recording's {@code java.class.path} and {@code user.dir} (which relative entries are relative
   * to), as its system properties give them, either may be null; and the folder the recording was
   * read from, or null.
   */
  public record RecordedClassPath(String classPath, String workingDirectory, Path recordedIn) {}

  /**
   * The class files an analysis can read: {@code userClassPath} first ({@code lib/*} means every
   * jar in lib), then each recording's class path where its files exist on this machine, then
   * vtscope's own code, which holds the workloads that made the samples.
   */
  public static ClassBytesSource of(
      List<Path> userClassPath,
      List<RecordedClassPath> recorded,
      String recordingVersion,
      int recordingFeature,
      java.util.function.Supplier<List<Path>> jdkHomes) {
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
        if (base == null && r.recordedIn() != null) {
          // no user.dir (JFR does not record it): the recording's own folder, where a program
          // run with a relative recording file name wrote it, then the current folder
          entries.addAll(expand(r.classPath(), r.recordedIn()));
        }
        entries.addAll(expand(r.classPath(), base));
      } catch (java.nio.file.InvalidPathException e) {
        // a class path of another operating system: nothing of it is here
      }
    }
    ownCode().ifPresent(entries::add);
    ClassBytesSource source =
        new ClassBytesSource(entries, recordingVersion, recordingFeature, jdkHomes);
    source.userClassPathGiven = !userClassPath.isEmpty();
    source.unresolvedRelative = unresolvedRelative(recorded);
    return source;
  }

  /**
   * The relative entries of recorded class paths that exist neither in the recording's folder nor
   * in the current one: the program ran in a folder JFR does not record ({@code user.dir}).
   */
  private static List<String> unresolvedRelative(List<RecordedClassPath> recorded) {
    java.util.Set<String> unresolved = new java.util.LinkedHashSet<>();
    for (RecordedClassPath r : recorded) {
      if (r.workingDirectory() != null || r.classPath() == null) {
        continue;
      }
      for (String part : r.classPath().split(java.io.File.pathSeparator)) {
        try {
          if (part.isBlank() || Path.of(part).isAbsolute()) {
            continue;
          }
          String plain = part.endsWith("*") ? part.substring(0, part.length() - 1) : part;
          Path relative = Path.of(plain.isEmpty() ? "." : plain);
          boolean here = Files.exists(relative);
          boolean besideRecording =
              r.recordedIn() != null && Files.exists(r.recordedIn().resolve(relative));
          if (!here && !besideRecording) {
            unresolved.add(part);
          }
        } catch (java.nio.file.InvalidPathException e) {
          // another operating system's path: nothing of it is here either way
        }
      }
    }
    return List.copyOf(unresolved);
  }

  private List<String> unresolvedRelative = List.of();

  /**
   * Relative entries of the recordings' class paths found neither beside the recording nor in the
   * current folder: their classes could not be read, so frames in them were not checked.
   */
  public List<String> unresolvedRelativeEntries() {
    return unresolvedRelative;
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
    if (!isJdkClass(className)) {
      return Optional.empty();
    }
    JdkImage image = jdkImage();
    Optional<byte[]> bytes = image == null ? Optional.empty() : image.find(className);
    if (bytes.isPresent()) {
      jdkClassRead = true;
      return Optional.of(new ClassBytes(bytes.get(), null));
    }
    return Optional.empty();
  }

  /**
   * For a JDK class whose class file is not here because no JDK of the recording's release is
   * installed: its blocks from vtscope's table of that release, when vtscope ships one and it
   * covers the class's package. Empty otherwise, and then the class counts as unchecked.
   */
  Optional<SynchronizedBlockLocator> jdkTableLocator(String className) {
    if (!isJdkClass(className) || jdkImage() != null || recordingFeature <= 0) {
      return Optional.empty();
    }
    Optional<JdkMonitorTable> table = JdkMonitorTable.of(recordingFeature);
    Optional<SynchronizedBlockLocator> locator = table.flatMap(t -> t.locator(className));
    if (locator.isPresent()) {
      jdkTable = table.get();
    } else {
      jdkClassMissing = true;
    }
    return locator;
  }

  /**
   * Reads the tables of JDK classes' synchronized blocks that vtscope ships for the releases none
   * of {@code jdkHomes} (nor the running JDK) is of, so that an analysis started later finds them
   * read: reading one is a tenth of a small recording's analysis. A release that is installed is
   * checked against its own class files, and its table is not read.
   */
  public static void readShippedJdkTables(List<Path> jdkHomes) {
    List<Path> homes = new ArrayList<>(jdkHomes);
    homes.add(Path.of(System.getProperty("java.home")));
    for (int feature : JdkMonitorTable.SHIPPED) {
      if (homes.stream()
          .map(JdkImage::at)
          .noneMatch(image -> image.isPresent() && image.get().feature() == feature)) {
        JdkMonitorTable.of(feature);
      }
    }
  }

  /** The updates of vtscope's table that answered for JDK classes, if it was used. */
  public Optional<List<String>> jdkTableUpdates() {
    return Optional.ofNullable(jdkTable).map(JdkMonitorTable::updates);
  }

  private static boolean isJdkClass(String className) {
    for (String prefix : JDK_PACKAGES) {
      if (className.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The JDK whose classes stand for the recording's: the same update when one is installed, else
   * the first of the same feature release; the running JDK is looked at first. Null when none is.
   */
  private JdkImage jdkImage() {
    if (jdkChosen) {
      return jdk;
    }
    jdkChosen = true;
    if (recordingFeature <= 0) {
      return null;
    }
    List<Path> homes = new ArrayList<>();
    homes.add(Path.of(System.getProperty("java.home")));
    homes.addAll(jdkHomes.get());
    String wanted = releaseOf(recordingVersion);
    JdkImage sameFeature = null;
    java.util.Set<Path> seen = new java.util.HashSet<>();
    for (Path home : homes) {
      Path real;
      try {
        real = home.toRealPath();
      } catch (IOException e) {
        continue;
      }
      if (!seen.add(real)) {
        continue;
      }
      Optional<JdkImage> image = JdkImage.at(real);
      if (image.isEmpty() || image.get().feature() != recordingFeature) {
        continue;
      }
      if (!image.get().readable()) {
        unreadableJdks.add(real);
        image.get().close();
        continue;
      }
      if (wanted != null && wanted.equals(image.get().version())) {
        jdk = image.get();
        return jdk;
      }
      if (sameFeature == null) {
        sameFeature = image.get();
      }
    }
    jdk = sameFeature;
    return jdk;
  }

  /** {@code 21.0.8} of {@code 21.0.8+9-LTS}, as a JDK's release file states its version. */
  public static String releaseOf(String javaVersion) {
    if (javaVersion == null) {
      return null;
    }
    int end = 0;
    while (end < javaVersion.length()
        && (Character.isDigit(javaVersion.charAt(end)) || javaVersion.charAt(end) == '.')) {
      end++;
    }
    return end == 0 ? null : javaVersion.substring(0, end);
  }

  /**
   * Which JDK's class files were read for JDK frames, if any were: its release, and whether it is
   * the recording's very update.
   */
  public Optional<JdkClassFiles> jdkClassFiles() {
    if (!jdkClassRead || jdk == null) {
      return Optional.empty();
    }
    return Optional.of(
        new JdkClassFiles(jdk.version(), jdk.version().equals(releaseOf(recordingVersion))));
  }

  /**
   * Whether JDK frames went unchecked because no JDK of the recording's release is installed and
   * vtscope's table does not cover them.
   */
  /**
   * The installed JDKs of the recording's release whose class files could not be read, and which
   * were passed over.
   */
  public List<Path> unreadableJdks() {
    return List.copyOf(unreadableJdks);
  }

  public boolean jdkClassesMissing() {
    return jdkClassMissing;
  }

  /**
   * @param version the release whose class files were read, e.g. {@code 21.0.8}
   * @param sameUpdate whether it is the recording's update too, not only its feature release
   */
  public record JdkClassFiles(String version, boolean sameUpdate) {}

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

  /** Whether the user gave a class path (--classpath) to search first. */
  public boolean userClassPathGiven() {
    return userClassPathGiven;
  }

  /** Closes the jars and the JDK image it opened. */
  @Override
  public void close() {
    if (jdk != null) {
      jdk.close();
    }
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
