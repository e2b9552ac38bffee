package dev.vtscope.advice;

import dev.vtscope.analysis.Message;

/** The action that names a known library's fix: its fixed release, or what to do without one. */
final class LibraryFix {

  private LibraryFix() {}

  /**
   * @param lib the library
   * @param version the release the recording has, or null when unknown
   * @param method the library's method that holds the carrier (or that called into the JDK's)
   * @param gain what the upgrade removes, or an empty string
   */
  static Message action(Knowledge.Library lib, String version, String method, Object gain) {
    if (lib.fixedIn() == null) {
      return Message.of(
          "library.unfixed",
          "name",
          lib.name(),
          "checkedUpTo",
          lib.checkedUpTo(),
          "change",
          lib.change(),
          "source",
          lib.source(),
          "remedy",
          lib.remedy());
    }
    if (version == null || Facts.compareVersions(version, lib.fixedIn()) < 0) {
      return Message.of(
          "library.upgrade",
          "artifact",
          lib.artifact(),
          "from",
          version == null ? "" : Message.of("library.upgrade.from", "version", version),
          "fixedIn",
          lib.fixedIn(),
          "change",
          lib.change(),
          "source",
          lib.source(),
          "gain",
          gain,
          // the remedy continues the sentence
          "remedy",
          Character.toLowerCase(lib.remedy().charAt(0)) + lib.remedy().substring(1));
    }
    if (lib.knownPin(method)) {
      return Message.of(
          "library.older-copy",
          "name",
          lib.name(),
          "fixedIn",
          lib.fixedIn(),
          "method",
          method,
          "version",
          version);
    }
    return Message.of(
        "library.not-covered",
        "name",
        lib.name(),
        "version",
        version,
        "method",
        method,
        "fixedIn",
        lib.fixedIn(),
        "source",
        lib.source());
  }
}
