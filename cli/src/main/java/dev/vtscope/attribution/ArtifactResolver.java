package dev.vtscope.attribution;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/**
 * Names the artifact a jar holds, from the most to the least reliable of its own metadata:
 *
 * <ol>
 *   <li>{@code META-INF/maven/<group>/<artifact>/pom.properties}: real coordinates. A shaded jar
 *       holds several, or only those of what it bundles: the one whose artifact the jar's file name
 *       carries, else the one whose group is the longest prefix of the class's package (of equal
 *       groups, the one named for the package's next part), else, when the file name carries an
 *       artifact, none (they are the bundled dependencies'), else the first by entry name;
 *   <li>the manifest's stable identifiers, {@code Bundle-SymbolicName}, {@code
 *       Automatic-Module-Name}, {@code Extension-Name} (usually the package);
 *   <li>the manifest's titles, {@code Implementation-Title}, {@code Bundle-Name}, {@code
 *       Specification-Title} (free text: a database driver's can read "Standard runtime");
 *   <li>the file name as Maven and Gradle write it ({@code foo-1.2.3-linux-x86_64.jar}).
 * </ol>
 *
 * A manifest's version is the file name's when it has one (the one the build declares, where a
 * bundle's may be encoded for OSGi: Derby 10.16.1.1's Bundle-Version is 10.16.1000001.1901046),
 * else its {@code Bundle-Version} or {@code Implementation-Version}. A version never keeps a
 * classifier, and a title never repeats the version.
 */
final class ArtifactResolver {

  private static final List<String> IDENTIFIERS =
      List.of("Bundle-SymbolicName", "Automatic-Module-Name", "Extension-Name");
  private static final List<String> TITLES =
      List.of("Implementation-Title", "Bundle-Name", "Specification-Title");

  // Per jar, not per class: a shaded jar's classes may belong to different artifacts.
  private final Map<Path, JarMetadata> cache = new HashMap<>();

  /** The artifact of {@code jar} for a class in {@code packageName}, or null when unknown. */
  Artifact resolve(Path jar, String packageName) {
    return cache.computeIfAbsent(jar, ArtifactResolver::read).identify(packageName);
  }

  /** One {@code pom.properties}: group and artifact from its keys, else from its path. */
  private record Pom(String entry, String group, String artifact, String version) {}

  /** What a jar says of itself; {@code main} is null without a manifest. */
  private record JarMetadata(String fileName, List<Pom> poms, Attributes main) {

    Artifact identify(String packageName) {
      Pom pom = choose(packageName == null ? "" : packageName);
      if (pom != null) {
        return new Artifact(
            pom.group() + ":" + pom.artifact(), pom.version(), Artifact.Source.MAVEN, fileName);
      }
      JarFileName file = JarFileName.parse(fileName);
      if (main != null) {
        for (List<String> headers : List.of(IDENTIFIERS, TITLES)) {
          for (String header : headers) {
            String value = first(main, header);
            if (value != null) {
              String version = manifestVersion(header, file);
              return new Artifact(
                  withoutVersion(value, version),
                  version,
                  Artifact.Source.MANIFEST,
                  fileName,
                  header);
            }
          }
        }
      }
      return file == null
          ? null
          : new Artifact(file.artifact(), file.version(), Artifact.Source.FILE_NAME, fileName);
    }

    private Pom choose(String packageName) {
      if (poms.isEmpty()) {
        return null;
      }
      JarFileName file = JarFileName.parse(fileName);
      for (Pom p : poms) {
        if (file != null ? p.artifact().equals(file.artifact()) : isFileOf(p)) {
          return p;
        }
      }
      if (file == null && poms.size() == 1) {
        return poms.get(0); // a jar renamed without a version: its one pom.properties names it
      }
      Pom best = null;
      for (Pom p : poms) {
        boolean prefix = packageName.equals(p.group()) || packageName.startsWith(p.group() + ".");
        if (prefix
            && (best == null
                || p.group().length() > best.group().length()
                || p.group().length() == best.group().length()
                    && namesPackage(p, packageName)
                    && !namesPackage(best, packageName))) {
          best = p;
        }
      }
      if (best != null) {
        return best;
      }
      // The file name, as Maven and Gradle write it, names an artifact no pom.properties is of:
      // they are of dependencies bundled into it (kafka-clients 4.4's is commons-net's alone), and
      // the jar is named by its manifest or its file name instead.
      return file != null ? null : poms.get(0);
    }

    /**
     * Whether the artifact is named for the package's part after the group, as a project's modules
     * are: {@code dev.vtscope:vtscope-workloads} for {@code dev.vtscope.workloads}, where one jar
     * bundles several modules of one group.
     */
    private static boolean namesPackage(Pom p, String packageName) {
      if (packageName.length() <= p.group().length() + 1) {
        return false;
      }
      String rest = packageName.substring(p.group().length() + 1);
      int dot = rest.indexOf('.');
      String segment = dot < 0 ? rest : rest.substring(0, dot);
      return p.artifact().equals(segment) || p.artifact().endsWith("-" + segment);
    }

    private boolean isFileOf(Pom p) {
      return fileName.equals(p.artifact() + ".jar");
    }

    private String manifestVersion(String header, JarFileName file) {
      String version = file != null ? file.version() : null;
      if (version == null) {
        version =
            header.startsWith("Bundle")
                ? first(main, "Bundle-Version", "Implementation-Version")
                : first(main, "Implementation-Version", "Bundle-Version");
      }
      return version == null ? null : JarFileName.splitClassifier(version).version();
    }
  }

  /**
   * A title without the version it repeats: "Foo JNI 10.10.1.1-linux64" at version 10.10.1.1 is
   * "Foo JNI".
   */
  static String withoutVersion(String title, String version) {
    if (version == null) {
      return title;
    }
    String name = title;
    int space = name.lastIndexOf(' ');
    while (space > 0) {
      String last = name.substring(space + 1);
      if (!(last.startsWith(version) || last.startsWith("v" + version))) {
        break;
      }
      name = name.substring(0, space).stripTrailing();
      space = name.lastIndexOf(' ');
    }
    return name;
  }

  private static JarMetadata read(Path jar) {
    String fileName = jar.getFileName().toString();
    try (JarFile file = new JarFile(jar.toFile())) {
      List<Pom> poms = new ArrayList<>();
      Enumeration<? extends ZipEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        String[] path = entry.getName().split("/");
        if (path.length == 5
            && path[0].equals("META-INF")
            && path[1].equals("maven")
            && path[4].equals("pom.properties")) {
          Properties p = new Properties();
          try (InputStream in = file.getInputStream(entry)) {
            p.load(in);
          }
          poms.add(
              new Pom(
                  entry.getName(),
                  p.getProperty("groupId", path[2]).trim(),
                  p.getProperty("artifactId", path[3]).trim(),
                  blankToNull(p.getProperty("version"))));
        }
      }
      // not Comparator.comparing, whose lambda is serializable: no class-data archive keeps it
      poms.sort((a, b) -> a.entry().compareTo(b.entry()));
      Manifest manifest = file.getManifest();
      return new JarMetadata(
          fileName, poms, manifest == null ? null : manifest.getMainAttributes());
    } catch (IOException | RuntimeException e) {
      // unreadable as a jar: still named by its file name
      return new JarMetadata(fileName, List.of(), null);
    }
  }

  /**
   * Names a jar from what it holds, read by the caller: its {@code
   * META-INF/maven/<group>/<artifact>/pom.properties} entries (entry name to bytes) and its
   * manifest, or null. For a class in no particular package; null when nothing names it.
   */
  static Artifact identify(String fileName, Map<String, byte[]> pomProperties, Manifest manifest) {
    List<Pom> poms = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : new java.util.TreeMap<>(pomProperties).entrySet()) {
      String[] path = e.getKey().split("/");
      if (path.length != 5) {
        continue;
      }
      Properties p = new Properties();
      try {
        p.load(new java.io.ByteArrayInputStream(e.getValue()));
      } catch (IOException | IllegalArgumentException x) {
        continue;
      }
      poms.add(
          new Pom(
              e.getKey(),
              p.getProperty("groupId", path[2]).trim(),
              p.getProperty("artifactId", path[3]).trim(),
              blankToNull(p.getProperty("version"))));
    }
    return new JarMetadata(fileName, poms, manifest == null ? null : manifest.getMainAttributes())
        .identify(null);
  }

  /** Whether a jar's entry is one {@link #identify(String, Map, Manifest)} reads. */
  static boolean isPomProperties(String entryName) {
    String[] path = entryName.split("/");
    return path.length == 5
        && path[0].equals("META-INF")
        && path[1].equals("maven")
        && path[4].equals("pom.properties");
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static String first(Attributes attributes, String... names) {
    for (String n : names) {
      String value = attributes.getValue(n);
      if (value != null && !value.isBlank()) {
        int semicolon = value.indexOf(';');
        return semicolon > 0 ? value.substring(0, semicolon).trim() : value.trim();
      }
    }
    return null;
  }
}
