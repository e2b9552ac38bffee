package dev.vtscope.attribution;

import java.nio.file.Path;

/**
 * The bytes of a class file and where they came from.
 *
 * @param bytes the class file
 * @param jar the jar that holds it, or null for a folder or the JDK's runtime image
 */
public record ClassBytes(byte[] bytes, Path jar) {}
