package dev.vtscope.attribution;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The JDK methods that block a virtual thread, from {@code blocking-calls.tsv}. A call matches a
 * line of the table when its class is the line's class or a subtype of it, as the JDK running
 * vtscope has them: {@code FileInputStream.read} matches {@code FileInputStream}'s line before
 * {@code InputStream}'s, the nearest type winning. Only the JDK's own classes are looked up, and
 * loaded without being initialised.
 */
public final class BlockingCalls {

  /** One line: a method name, with the start of a descriptor or not, and its kind. */
  private record Line(String name, String descriptorStart, BlockingKind kind) {

    boolean matches(String method, String descriptor) {
      return (name.equals("*") || name.equals(method))
          && (descriptorStart == null || descriptor.startsWith(descriptorStart));
    }
  }

  /** A JDK method the table says blocks, as the call named it. */
  public record Blocking(String owner, String name, String descriptor, BlockingKind kind) {}

  // an array: this is asked of every call read, and a list's iterator is an allocation each time
  private static final String[] JDK_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

  private static final BlockingCalls STANDARD = load();

  private final Map<String, List<Line>> byClass;

  /** A call's method, as a key: no string built per lookup. */
  private record Method(String owner, String name, String descriptor) {}

  private final ConcurrentMap<Method, Optional<BlockingKind>> cache = new ConcurrentHashMap<>();

  /** Of JDK classes, whether a line of "*" (every method) covers them. */
  private final ConcurrentMap<String, Boolean> everyMethod = new ConcurrentHashMap<>();

  /** The names the table lists: a call of any other name matches only a line of "*". */
  private final Set<String> names = new HashSet<>();

  private BlockingCalls(Map<String, List<Line>> byClass) {
    this.byClass = byClass;
    byClass.values().forEach(lines -> lines.forEach(l -> names.add(l.name())));
  }

  public static BlockingCalls standard() {
    return STANDARD;
  }

  private static final ConcurrentMap<String, Boolean> JDK_CLASSES = new ConcurrentHashMap<>();

  /**
   * Whether {@code className} is the JDK's, which the table answers for: in {@code java.}, or in
   * the JDK's other packages ({@code javax.}, {@code com.sun.}) and known to the running JDK, as
   * {@code javax.servlet} and {@code com.sun.jna} are not.
   */
  public static boolean isJdkClass(String className) {
    if (className.startsWith("java.")) {
      return true;
    }
    // most names a scan asks about are a library's: the first letter rules out every prefix
    char first = className.isEmpty() ? ' ' : className.charAt(0);
    if (first != 'j' && first != 's' && first != 'c') {
      return false;
    }
    for (String prefix : JDK_PACKAGES) {
      if (className.startsWith(prefix)) {
        return ConcurrentMemo.get(JDK_CLASSES, className, c -> load(c) != null);
      }
    }
    return false;
  }

  /**
   * Whether a scan needs to keep a call: one into the class path, or of a JDK method the table
   * lists, or the making of a foreign-function upcall. Calls of the JDK's other methods lead
   * nowhere the scan follows.
   */
  public boolean worthFollowing(String owner, String name, String descriptor) {
    if (!isJdkClass(owner)) {
      return true;
    }
    return (owner.equals("java.lang.foreign.Linker") && name.equals("upcallStub"))
        || match(owner, name, descriptor).isPresent();
  }

  /** The kind of block of {@code owner.name} (a JDK class), or empty when the table has none. */
  public Optional<Blocking> match(String owner, String name, String descriptor) {
    if (!isJdkClass(owner)
        || (!names.contains(name)
            && !ConcurrentMemo.get(everyMethod, owner, o -> lookUp(o, "*", "").isPresent()))) {
      return Optional.empty();
    }
    Optional<BlockingKind> kind =
        ConcurrentMemo.get(
            cache, new Method(owner, name, descriptor), k -> lookUp(owner, name, descriptor));
    return kind.map(k -> new Blocking(owner, name, descriptor, k));
  }

  private Optional<BlockingKind> lookUp(String owner, String name, String descriptor) {
    // breadth first: the class itself, then its supertypes nearest first
    ArrayDeque<String> pending = new ArrayDeque<>(List.of(owner));
    Set<String> seen = new HashSet<>();
    while (!pending.isEmpty()) {
      String type = pending.poll();
      if (!seen.add(type)) {
        continue;
      }
      for (Line line : byClass.getOrDefault(type, List.of())) {
        if (line.matches(name, descriptor)) {
          return Optional.of(line.kind());
        }
      }
      Class<?> c = load(type);
      if (c == null) {
        continue;
      }
      if (c.getSuperclass() != null) {
        pending.add(c.getSuperclass().getName());
      }
      for (Class<?> i : c.getInterfaces()) {
        pending.add(i.getName());
      }
    }
    return Optional.empty();
  }

  private static Class<?> load(String type) {
    try {
      return Class.forName(type, false, ClassLoader.getPlatformClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null; // a class of another JDK release: its own line still matched
    }
  }

  private static BlockingCalls load() {
    try (InputStream in = BlockingCalls.class.getResourceAsStream("blocking-calls.tsv")) {
      if (in == null) {
        throw new IllegalStateException("blocking-calls.tsv is missing from vtscope's jar");
      }
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException("blocking-calls.tsv cannot be read", e);
    }
  }

  /** Reads a table; a line that is not class, method and kind fails here. */
  public static BlockingCalls read(InputStream in) throws IOException {
    Map<String, List<Line>> byClass = new HashMap<>();
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String text;
    while ((text = reader.readLine()) != null) {
      if (text.isBlank() || text.startsWith("#")) {
        continue;
      }
      String[] fields = text.split("\t");
      if (fields.length != 3) {
        throw new IOException("not class, method and kind: " + text);
      }
      int paren = fields[1].indexOf('(');
      Line line =
          new Line(
              paren < 0 ? fields[1] : fields[1].substring(0, paren),
              paren < 0 ? null : fields[1].substring(paren),
              BlockingKind.valueOf(fields[2]));
      byClass.computeIfAbsent(fields[0], k -> new ArrayList<>()).add(line);
    }
    return new BlockingCalls(byClass);
  }

  /** The kinds the table uses, each with a line: for tests of the table itself. */
  public Set<BlockingKind> kinds() {
    Set<BlockingKind> kinds = new HashSet<>();
    byClass.values().forEach(lines -> lines.forEach(l -> kinds.add(l.kind())));
    return kinds;
  }
}
