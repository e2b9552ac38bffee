package dev.vtscope.attribution;

/**
 * The library a class came from, as the jar names itself.
 *
 * @param name {@code group:artifact} from the jar's Maven metadata; otherwise the artifact alone (a
 *     manifest header's value, or the jar's file name without version and classifier), no group
 *     being known
 * @param version the version, never with a classifier glued on, or null
 * @param source what named it
 * @param jar the jar's file name
 * @param header for a manifest, the header that named it: {@code Bundle-SymbolicName}, {@code
 *     Automatic-Module-Name}, {@code Extension-Name}, then the titles ({@code
 *     Implementation-Title}, {@code Bundle-Name}, {@code Specification-Title}), in that order of
 *     preference; null otherwise
 */
public record Artifact(String name, String version, Source source, String jar, String header) {

  /** Named by Maven metadata or by the file name, or by a manifest header not named. */
  public Artifact(String name, String version, Source source, String jar) {
    this(name, version, source, jar, null);
  }

  /**
   * Names a jar from what it holds, as {@code vtscope scan} reads it: its pom.properties entries
   * (entry name to bytes, see {@link #isPomProperties}) and its manifest, or null. Null when
   * nothing names it.
   */
  public static Artifact of(
      String jarFileName,
      java.util.Map<String, byte[]> pomProperties,
      java.util.jar.Manifest manifest) {
    return ArtifactResolver.identify(jarFileName, pomProperties, manifest);
  }

  /** Whether a jar's entry is one of the pom.properties that {@link #of} reads. */
  public static boolean isPomProperties(String entryName) {
    return ArtifactResolver.isPomProperties(entryName);
  }

  /** Where the name came from. */
  public enum Source {
    /** {@code META-INF/maven/.../pom.properties}: real Maven coordinates. */
    MAVEN,
    /**
     * A manifest header ({@link #header()} says which): an OSGi bundle's or a module's name, or a
     * title; no group.
     */
    MANIFEST,
    /** The jar's file name, as Maven and Gradle write it ({@code foo-1.2.3.jar}); no group. */
    FILE_NAME
  }

  /**
   * How to show it: {@code group:artifact:version}, without the group when none is known and
   * without the version when none is.
   */
  public String display() {
    return version == null ? name : name + ":" + version;
  }
}
