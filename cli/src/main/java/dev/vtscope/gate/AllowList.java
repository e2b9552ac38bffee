package dev.vtscope.gate;

import java.util.List;

/**
 * Classes and packages whose pins a project tolerates. An entry matches a class equal to it, a
 * class in it as a package ({@code org.h2} matches {@code org.h2.command.Command}), a nested class
 * of it, or a method named {@code Class.method}.
 */
public record AllowList(List<String> entries) {

  public AllowList {
    entries = entries.stream().map(String::trim).filter(e -> !e.isEmpty()).toList();
  }

  public static final AllowList NONE = new AllowList(List.of());

  /** The entry that allows {@code className} (and {@code method}, which may be null), or null. */
  public String match(String className, String method) {
    if (className == null) {
      return null;
    }
    for (String entry : entries) {
      if (className.equals(entry)
          || className.startsWith(entry + ".")
          || className.startsWith(entry + "$")
          || (method != null && (className + "." + method).equals(entry))) {
        return entry;
      }
    }
    return null;
  }
}
