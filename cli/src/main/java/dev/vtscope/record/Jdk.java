package dev.vtscope.record;

import java.nio.file.Path;

/**
 * An installed Java runtime.
 *
 * @param home its home folder
 * @param feature its feature release, e.g. 21
 */
public record Jdk(Path home, int feature) {

  /** Its {@code bin/java}. */
  public Path java() {
    return home.resolve("bin").resolve("java");
  }
}
