package dev.vtscope.attribution;

/**
 * Whether a {@code URL.openStream()} reads a resource of the class path, when the code right before
 * the call shows it: the URL is what {@code Class.getResource}, {@code ClassLoader.getResource} (a
 * {@code URLClassLoader}'s too) or {@code ClassLoader.getSystemResource} returned, used at once or
 * through a local that is no parameter and is given such a value at every store. Such a URL names a
 * jar's entry or a file, so the call reads a file, where the table of blocking calls must take any
 * other URL for a socket. Anything else (a field, a parameter, a local given another value, a jump
 * in between) is left to the table.
 */
final class ResourceRead {

  private static final String URL = "java.net.URL";

  private ResourceRead() {}

  /**
   * @param m the calling method
   * @param previous the instruction right before the call
   * @param bci the call
   * @param called what the call names
   */
  static boolean of(MethodCode m, int previous, int bci, MethodCode.MemberRef called) {
    if (!called.owner().equals(URL)
        || !called.name().equals("openStream")
        || !called.descriptor().equals("()Ljava/io/InputStream;")
        || m.jumpTarget(bci)) {
      return false;
    }
    if (isGetResource(m, previous)) {
      return true;
    }
    int local = RunnableArgument.loadedLocal(m, previous);
    if (local < 0 || !RunnableArgument.notAParameter(m, local)) {
      return false;
    }
    return everyStoreFromGetResource(m, local);
  }

  /**
   * Whether {@code local} is stored at least once, and every store takes what a resource lookup
   * right before it returned, nothing jumping to the store: a library that tries two names keeps
   * the URL of either in one local.
   */
  private static boolean everyStoreFromGetResource(MethodCode m, int local) {
    boolean stored = false;
    int previous = -1;
    for (int at = 0; at < m.code().length; previous = at, at += m.instructionLength(at)) {
      if (RunnableArgument.storedLocal(m, at) == local) {
        if (previous < 0 || m.jumpTarget(at) || !isGetResource(m, previous)) {
          return false;
        }
        stored = true;
      }
    }
    return stored;
  }

  /** Whether the instruction at {@code at} calls one of the methods that look a resource up. */
  private static boolean isGetResource(MethodCode m, int at) {
    int opcode = m.opcode(at);
    if (opcode != 0xb6 && opcode != 0xb8) { // invokevirtual, invokestatic
      return false;
    }
    MethodCode.MemberRef r = m.invoked(at);
    if (r == null || !r.descriptor().equals("(Ljava/lang/String;)Ljava/net/URL;")) {
      return false;
    }
    return switch (r.owner()) {
      case "java.lang.Class" -> opcode == 0xb6 && r.name().equals("getResource");
      case "java.lang.ClassLoader", "java.net.URLClassLoader" ->
          opcode == 0xb6 && r.name().equals("getResource")
              || opcode == 0xb8 && r.name().equals("getSystemResource");
      default -> false;
    };
  }
}
