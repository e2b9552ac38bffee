package dev.vtscope.attribution;

/**
 * The library a class came from, as the jar names itself.
 *
 * @param name {@code group:artifact} from the jar's Maven metadata, or the manifest's title
 * @param version the version the metadata gives, or null
 * @param source which metadata named it
 * @param jar the jar's file name
 */
public record Artifact(String name, String version, Source source, String jar) {

  /** Where the name came from. */
  public enum Source {
    /** {@code META-INF/maven/.../pom.properties}: real Maven coordinates. */
    MAVEN,
    /** The manifest's implementation or bundle headers: a title, not Maven coordinates. */
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
