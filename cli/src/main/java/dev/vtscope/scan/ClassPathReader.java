package dev.vtscope.scan;

import dev.vtscope.analysis.Cores;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.BlockingCalls;
import dev.vtscope.attribution.ClassCode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Reads the classes of a class path's jars and folders, each jar once, on every core. A Spring Boot
 * fat jar or a war is read as the class path it carries: its own classes ({@code BOOT-INF/classes},
 * {@code WEB-INF/classes}) and each nested jar ({@code BOOT-INF/lib}, {@code WEB-INF/lib}), read
 * from the outer jar in memory. A jar that cannot be read is kept with its problem, never fatal.
 */
final class ClassPathReader {

  private static final List<String> NESTED_LIBS = List.of("BOOT-INF/lib/", "WEB-INF/lib/");
  private static final List<String> NESTED_CLASSES =
      List.of("BOOT-INF/classes/", "WEB-INF/classes/");
  private static final String VERSIONS = "META-INF/versions/";

  /**
   * One thing to read: a jar, a folder, a jar inside a jar, or the classes under a jar's prefix.
   *
   * @param size about how many bytes it is to read: the largest are read first
   */
  private record Source(Path path, String entry, String prefix, boolean folder, long size) {

    String location() {
      if (folder) {
        return path.toString();
      }
      if (entry != null) {
        return path + "!/" + entry;
      }
      return prefix.isEmpty() ? path.toString() : path + "!/" + prefix;
    }
  }

  /** What was read from one source. */
  record Read(ScannedArchive archive, List<ScannedClass> classes) {}

  private ClassPathReader() {}

  /**
   * Reads {@code entries} (jars and folders), in their order.
   *
   * @return one {@link Read} per jar or folder, nested jars after their outer jar
   */
  static List<Read> read(List<Path> entries) {
    List<List<Source>> expanded = new ArrayList<>(Collections.nCopies(entries.size(), null));
    Cores.forEach(entries.size(), i -> expanded.set(i, expand(entries.get(i))));
    List<Source> sources = expanded.stream().flatMap(List::stream).toList();
    List<Read> reads = new ArrayList<>();
    // one instance of each name and descriptor for the whole class path: most of what a scan
    // keeps is the names its classes' calls give, each repeated in thousands of classes
    ConcurrentHashMap<String, String> kept = new ConcurrentHashMap<>();
    UnaryOperator<String> names =
        s -> {
          String known = kept.get(s);
          if (known != null) {
            return known;
          }
          known = kept.putIfAbsent(s, s);
          return known == null ? s : known;
        };
    // the largest first, each core taking the next when done: in class path order, one core read
    // the last large jars alone for a third of the reading time
    Integer[] order = new Integer[sources.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(
        order, (a, b) -> Long.compare(sources.get(b).size(), sources.get(a).size()));
    Read[] read = new Read[sources.size()];
    Cores.forEach(order.length, k -> read[order[k]] = readSource(sources.get(order[k]), names));
    List<Read> parts = List.of(read);
    for (int i = 0; i < parts.size(); i++) {
      Read r = parts.get(i);
      List<ScannedClass> classes = new ArrayList<>(r.classes().size());
      for (ScannedClass c : r.classes()) {
        classes.add(new ScannedClass(c.code(), i, c.release()));
      }
      reads.add(new Read(r.archive(), classes));
    }
    return reads;
  }

  /** A folder is read as one; a jar too, unless it carries a class path of its own. */
  private static List<Source> expand(Path entry) {
    if (Files.isDirectory(entry)) {
      return List.of(new Source(entry, null, "", true, Long.MAX_VALUE)); // size unknown: early
    }
    List<Source> sources = new ArrayList<>();
    try (ZipFile zip = new ZipFile(entry.toFile())) {
      Map<String, Long> nested = new java.util.TreeMap<>();
      Map<String, Long> classes = new java.util.LinkedHashMap<>();
      long own = 0;
      Enumeration<? extends ZipEntry> all = zip.entries();
      while (all.hasMoreElements()) {
        ZipEntry e = all.nextElement();
        String name = e.getName();
        long size = Math.max(e.getCompressedSize(), 0);
        boolean elsewhere = false;
        for (String lib : NESTED_LIBS) {
          if (name.startsWith(lib)
              && name.endsWith(".jar")
              && name.indexOf('/', lib.length()) < 0) {
            nested.put(name, size);
            elsewhere = true;
          }
        }
        for (String prefix : NESTED_CLASSES) {
          if (name.startsWith(prefix) && name.endsWith(".class")) {
            classes.merge(prefix, size, Long::sum);
            elsewhere = true;
          }
        }
        own += elsewhere ? 0 : size;
      }
      sources.add(new Source(entry, null, "", false, own));
      classes.forEach((prefix, size) -> sources.add(new Source(entry, null, prefix, false, size)));
      nested.forEach((jar, size) -> sources.add(new Source(entry, jar, "", false, size)));
    } catch (IOException | RuntimeException e) {
      sources.add(new Source(entry, null, "", false, 0)); // its read says what is wrong
    }
    return sources;
  }

  /** Collects a jar's classes and the entries that name its artifact. */
  private static final class Collector {
    final UnaryOperator<String> names;
    final List<ScannedClass> classes = new ArrayList<>();
    final Map<String, byte[]> poms = new HashMap<>();
    Manifest manifest;
    int damaged;
    String firstDamage;

    Collector(UnaryOperator<String> names) {
      this.names = names;
    }

    void entry(String name, InputStream in) throws IOException {
      if (name.endsWith(".class")) {
        int release = 0;
        if (name.startsWith(VERSIONS)) {
          int slash = name.indexOf('/', VERSIONS.length());
          try {
            release = Integer.parseInt(name.substring(VERSIONS.length(), slash));
          } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return; // not a variant any JDK loads
          }
        }
        if (name.endsWith("module-info.class") || name.endsWith("package-info.class")) {
          return;
        }
        byte[] bytes = bytes(in);
        try {
          classes.add(
              new ScannedClass(
                  ClassCode.read(
                      bytes,
                      (owner, method, descriptor) ->
                          BlockingCalls.standard().worthFollowing(owner, method, descriptor)
                              || ThreadRoots.takesRunnable(owner, method, descriptor),
                      names),
                  0,
                  release));
        } catch (IllegalArgumentException e) {
          damaged++;
          if (firstDamage == null) {
            firstDamage = name + ": " + e.getMessage();
          }
        }
      } else if (Artifact.isPomProperties(name)) {
        poms.put(name, in.readAllBytes());
      } else if (name.equals("META-INF/MANIFEST.MF")) {
        manifest = new Manifest(in);
      }
    }

    /** Reused for every entry: a read of all bytes makes a large buffer per class file. */
    private byte[] buffer = new byte[64 * 1024];

    private byte[] bytes(InputStream in) throws IOException {
      int n = 0;
      int read;
      while ((read = in.read(buffer, n, buffer.length - n)) > 0) {
        n += read;
        if (n == buffer.length) {
          buffer = java.util.Arrays.copyOf(buffer, 2 * buffer.length);
        }
      }
      return java.util.Arrays.copyOf(buffer, n);
    }

    void take(Collector other) {
      classes.addAll(other.classes);
      poms.putAll(other.poms);
      manifest = other.manifest;
      damaged += other.damaged;
      if (firstDamage == null) {
        firstDamage = other.firstDamage;
      }
    }

    Read done(String location, String fileName, String problem) {
      String artifact = fileName;
      if (!poms.isEmpty() || manifest != null) {
        Artifact a = Artifact.of(fileName, poms, manifest);
        if (a != null) {
          artifact = a.display();
        }
      } else {
        Artifact a = Artifact.of(fileName, Map.of(), null);
        if (a != null) {
          artifact = a.display();
        }
      }
      if (problem == null && damaged > 0) {
        problem = damaged + " class files could not be read, the first " + firstDamage;
      }
      return new Read(new ScannedArchive(location, artifact, classes.size(), problem), classes);
    }
  }

  private static Read readSource(Source source, UnaryOperator<String> names) {
    Collector collector = new Collector(names);
    String problem = null;
    String fileName =
        source.entry() != null
            ? source.entry().substring(source.entry().lastIndexOf('/') + 1)
            : String.valueOf(source.path().getFileName());
    try {
      if (source.folder()) {
        readFolder(source.path(), collector);
      } else if (source.entry() != null) {
        readNested(source.path(), source.entry(), collector);
      } else {
        readJar(source.path(), source.prefix(), collector);
      }
    } catch (IOException | RuntimeException e) {
      problem =
          "not readable: "
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
    if (!source.folder() && !source.prefix().isEmpty()) {
      fileName = source.prefix();
    }
    return collector.done(source.location(), fileName, problem);
  }

  private static void readFolder(Path folder, Collector collector) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        String name = folder.relativize(file).toString().replace(java.io.File.separatorChar, '/');
        try (InputStream in = Files.newInputStream(file)) {
          collector.entry(name, in);
        }
      }
    }
  }

  /**
   * Reads a jar's entries under {@code prefix} in one pass over its bytes, read whole: a class
   * path's jars are small, and one read saves a seek per entry. A jar a stream cannot walk (an
   * entry whose size only follows its data) is read through its central directory instead.
   */
  private static void readJar(Path jar, String prefix, Collector collector) throws IOException {
    byte[] bytes = Files.readAllBytes(jar);
    Collector streamed = new Collector(collector.names);
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(bytes))) {
      ZipEntry e;
      boolean any = false;
      while ((e = in.getNextEntry()) != null) {
        any = true;
        String name = e.getName();
        if (!name.startsWith(prefix)
            || e.isDirectory()
            || nestedPart(name, prefix)
            || !wanted(name)) {
          continue;
        }
        streamed.entry(name.substring(prefix.length()), in);
      }
      if (!any) {
        throw new java.util.zip.ZipException("no entries");
      }
      collector.take(streamed);
      return;
    } catch (java.util.zip.ZipException streamFailed) {
      // read through the central directory below
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      Enumeration<? extends ZipEntry> all = zip.entries();
      while (all.hasMoreElements()) {
        ZipEntry e = all.nextElement();
        String name = e.getName();
        if (!name.startsWith(prefix)
            || e.isDirectory()
            || nestedPart(name, prefix)
            || !wanted(name)) {
          continue;
        }
        try (InputStream in = zip.getInputStream(e)) {
          collector.entry(name.substring(prefix.length()), in);
        }
      }
    }
  }

  /** For the outer jar's own classes: whether the entry belongs to a nested class path instead. */
  private static boolean nestedPart(String name, String prefix) {
    if (!prefix.isEmpty()) {
      return false;
    }
    return name.startsWith("BOOT-INF/") || name.startsWith("WEB-INF/");
  }

  private static boolean wanted(String name) {
    return name.endsWith(".class")
        || name.equals("META-INF/MANIFEST.MF")
        || Artifact.isPomProperties(name);
  }

  private static void readNested(Path outer, String entry, Collector collector) throws IOException {
    byte[] jar;
    try (ZipFile zip = new ZipFile(outer.toFile())) {
      ZipEntry e = zip.getEntry(entry);
      if (e == null) {
        throw new IOException("no " + entry);
      }
      try (InputStream in = zip.getInputStream(e)) {
        jar = in.readAllBytes();
      }
    }
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar))) {
      ZipEntry e;
      while ((e = in.getNextEntry()) != null) {
        if (!e.isDirectory() && wanted(e.getName())) {
          collector.entry(e.getName(), in);
        }
      }
    }
  }
}
