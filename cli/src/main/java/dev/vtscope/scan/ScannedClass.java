package dev.vtscope.scan;

import dev.vtscope.attribution.ClassCode;

/**
 * A class read from the class path.
 *
 * @param code what its class file says
 * @param archive the index of its archive among the scan's
 * @param release for a multi-release jar's {@code META-INF/versions/N} variant, N; else 0
 */
record ScannedClass(ClassCode code, int archive, int release) {

  String name() {
    return code.name();
  }
}
