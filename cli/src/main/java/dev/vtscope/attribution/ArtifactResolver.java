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
 * Names the artifact a jar holds from its own metadata: {@code META-INF/maven/.../pom.properties}
 * first (real coordinates), then the manifest's {@code Bundle-SymbolicName} or {@code
 * Automatic-Module-Name} (stable identifiers, usually the package), then {@code Extension-Name},
 * then its {@code Implementation-Title} (free text: a database driver's can read "Standard
 * runtime"). Never from the file name alone; but a manifest-named jar's version is the one in its
 * file name when it has one, as Maven and Gradle name jars.
 */
final class ArtifactResolver {

  private final Map<Path, Artifact> cache = new HashMap<>();

  /** The artifact of {@code jar} for a class in {@code packageName}, or null when unknown. */
  Artifact resolve(Path jar, String packageName) {
    return cache.computeIfAbsent(jar, j -> read(j, packageName));
  }

  private static Artifact read(Path jar, String packageName) {
    String name = jar.getFileName().toString();
    try (JarFile file = new JarFile(jar.toFile())) {
      List<Properties> poms = new ArrayList<>();
      Enumeration<? extends ZipEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        if (entry.getName().startsWith("META-INF/maven/")
            && entry.getName().endsWith("/pom.properties")) {
          Properties p = new Properties();
          try (InputStream in = file.getInputStream(entry)) {
            p.load(in);
          }
          if (p.getProperty("groupId") != null && p.getProperty("artifactId") != null) {
            poms.add(p);
          }
        }
      }
      Properties best = null;
      for (Properties p : poms) {
        // A shaded jar holds several: prefer the one whose group matches the class's package.
        if (best == null
            || (packageName != null && packageName.startsWith(p.getProperty("groupId")))) {
          best = p;
        }
      }
      if (best != null) {
        return new Artifact(
            best.getProperty("groupId") + ":" + best.getProperty("artifactId"),
            best.getProperty("version"),
            Artifact.Source.MAVEN,
            name);
      }
      Manifest manifest = file.getManifest();
      if (manifest != null) {
        Attributes main = manifest.getMainAttributes();
        for (String header :
            List.of(
                "Bundle-SymbolicName",
                "Automatic-Module-Name",
                "Extension-Name",
                "Implementation-Title")) {
          String value = first(main, header);
          if (value != null) {
            // The file name's version first: it is the one the build declares, where a bundle's
            // may be encoded for OSGi (Derby 10.16.1.1's Bundle-Version is 10.16.1000001.1901046)
            String version = versionInFileName(name);
            if (version == null) {
              version =
                  header.startsWith("Bundle")
                      ? first(main, "Bundle-Version", "Implementation-Version")
                      : first(main, "Implementation-Version", "Bundle-Version");
            }
            return new Artifact(value, version, Artifact.Source.MANIFEST, name, header);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }

  private static final java.util.regex.Pattern FILE_VERSION =
      java.util.regex.Pattern.compile("-(\\d+(?:\\.\\w+)*(?:-[\\w.]+)?)\\.jar$");

  /**
   * The version in a jar's file name as Maven and Gradle name them ({@code c3p0-0.10.2.jar}), for
   * jars whose manifest names none; null when the name has no version.
   */
  static String versionInFileName(String fileName) {
    java.util.regex.Matcher m = FILE_VERSION.matcher(fileName);
    return m.find() ? m.group(1) : null;
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
