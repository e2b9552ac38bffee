package dev.vtscope.attribution;

/**
 * The library a class came from, as the jar names itself.
 *
 * @param name {@code group:artifact} from the jar's Maven metadata, or a manifest header's value
 * @param version the version the metadata gives, or null
 * @param source which metadata named it
 * @param jar the jar's file name
 * @param header for a manifest, the header that named it: {@code Bundle-SymbolicName}, {@code
 *     Automatic-Module-Name} or {@code Implementation-Title}, in that order of preference; null for
 *     Maven metadata
 */
public record Artifact(String name, String version, Source source, String jar, String header) {

  /** From Maven metadata, or from a manifest header not named. */
  public Artifact(String name, String version, Source source, String jar) {
    this(name, version, source, jar, null);
  }

  /** Where the name came from. */
  public enum Source {
    /** {@code META-INF/maven/.../pom.properties}: real Maven coordinates. */
    MAVEN,
    /**
     * A manifest header ({@link #header()} says which): an OSGi bundle's or a module's name, or an
     * implementation title; not Maven coordinates.
     */
    MANIFEST
  }

  /**
   * How to show it: {@code group:artifact:version} for Maven metadata, {@code Title version} for a
   * manifest (so a title never passes for coordinates).
   */
  public String display() {
    return source == Source.MAVEN
        ? name + ":" + (version == null ? "?" : version)
        : name + (version == null ? "" : " " + version);
  }
}
