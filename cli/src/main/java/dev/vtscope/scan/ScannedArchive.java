package dev.vtscope.scan;

/**
 * A jar or folder of the class path, as the scan read it.
 *
 * @param location where it is: a path, or for a jar inside a jar {@code
 *     outer.jar!/BOOT-INF/lib/x.jar}
 * @param artifact the artifact it holds, {@code group:artifact:version} as far as known, else its
 *     file name
 * @param classes the classes read from it
 * @param problem why it, or some of its classes, could not be read, or null
 */
public record ScannedArchive(String location, String artifact, int classes, String problem) {}
