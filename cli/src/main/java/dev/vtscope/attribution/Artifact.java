package dev.vtscope.attribution;

/**
 * The library a class came from.
 *
 * @param coordinates {@code group:artifact:version} from the jar's Maven metadata, or the
 *     manifest's title and version when it has no Maven metadata
 * @param jar the jar's file name
 */
public record Artifact(String coordinates, String jar) {}
