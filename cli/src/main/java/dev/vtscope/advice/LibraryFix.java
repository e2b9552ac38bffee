package dev.vtscope.advice;

/** The action that names a known library's fix: its fixed release, or what to do without one. */
final class LibraryFix {

  private LibraryFix() {}

  /**
   * @param lib the library
   * @param version the release the recording has, or null when unknown
   * @param method the library's method that holds the carrier (or that called into the JDK's)
   * @param gain what the upgrade removes, a sentence that starts with a space, or empty
   */
  static String action(Knowledge.Library lib, String version, String method, String gain) {
    if (lib.fixedIn() == null) {
      return "No fixed release of "
          + lib.name()
          + " is known (checked up to "
          + lib.checkedUpTo()
          + "): "
          + lib.change()
          + " ("
          + lib.source()
          + "). "
          + lib.remedy();
    }
    if (version == null || Facts.compareVersions(version, lib.fixedIn()) < 0) {
      return "Upgrade "
          + lib.artifact()
          + (version == null ? "" : " from " + version)
          + " to "
          + lib.fixedIn()
          + " or later: "
          + lib.change()
          + " ("
          + lib.source()
          + ")."
          + gain
          + " Until then: "
          + Character.toLowerCase(lib.remedy().charAt(0))
          + lib.remedy().substring(1);
    }
    if (lib.knownPin(method)) {
      return lib.name()
          + " "
          + lib.fixedIn()
          + " stopped pinning in "
          + method
          + ", yet this recording has "
          + version
          + ": look for an older copy of it on the class path (a shaded or duplicate jar).";
    }
    return lib.name()
        + " "
        + version
        + " still holds a monitor in "
        + method
        + ", which the fix of "
        + lib.fixedIn()
        + " did not cover ("
        + lib.source()
        + "): report it to its maintainers with this stack.";
  }
}
