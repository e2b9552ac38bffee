package dev.vtscope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each package's {@code package-info.java} ends with what the package may import ("May import:
 * {@code a}, {@code b}, the JDK.") and, optionally, what it must never import ("Never: {@code
 * c}."). This test reads those sentences and checks every import and every fully qualified name in
 * the package's sources against them. "The JDK" allows {@code java}, {@code javax}, {@code org.w3c}
 * and {@code org.xml}; other JDK modules ({@code jdk.jfr}) must be named. The packages of every
 * module are checked: the command line's, the JUnit extension's and the agent's.
 */
class LayeringTest {

  private static final List<Path> SOURCES =
      List.of(
          TestRecordings.repoRoot().resolve("cli/src/main/java/dev/vtscope"),
          TestRecordings.repoRoot().resolve("junit/src/main/java/dev/vtscope"),
          TestRecordings.repoRoot().resolve("agent/src/main/java/dev/vtscope"));

  private static final Pattern CODE = Pattern.compile("\\{@code\\s+([\\w.]+)\\s*}");
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final Pattern QUALIFIED =
      Pattern.compile(
          "(?<![\\w.])((?:dev\\.vtscope|jdk|java|javax|org|com|io|picocli)(?:\\.[a-z_]\\w*)+\\.[A-Z]\\w*)");

  /**
   * A comment, a text block, a string or a char literal, in one pass: whichever starts first is
   * skipped whole, so that the {@code //} of a URL in a string is not taken for a comment.
   */
  private static final Pattern NOT_CODE =
      Pattern.compile(
          "(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\""
              + "|\"[^\"\\\\\\n]*(?:\\\\.[^\"\\\\\\n]*)*\""
              + "|'[^'\\\\\\n]*(?:\\\\.[^'\\\\\\n]*)*'");

  static Stream<Path> packages() throws IOException {
    List<Path> packages = new ArrayList<>();
    for (Path sources : SOURCES) {
      try (Stream<Path> dirs = Files.list(sources)) {
        dirs.filter(Files::isDirectory).sorted().forEach(packages::add);
      }
    }
    return packages.stream();
  }

  @ParameterizedTest(name = "dev.vtscope.{0}")
  @MethodSource("packages")
  void importsOnlyWhatItsPackageInfoAllows(Path dir) throws IOException {
    String name = "dev.vtscope." + dir.getFileName();
    Path info = dir.resolve("package-info.java");
    assertThat(info).as("every package says what it may import").exists();
    String text = Files.readString(info).replaceAll("\\s*\\n\\s*\\*\\s*", " ");
    int may = text.indexOf("May import:");
    assertThat(may).as(name + ": a 'May import:' sentence in package-info.java").isNotNegative();
    int never = text.indexOf("Never:", may);
    String allowedText = never < 0 ? text.substring(may) : text.substring(may, never);
    List<String> allowed = codes(allowedText);
    allowed.add(name);
    if (allowedText.contains("the JDK")) {
      allowed.addAll(List.of("java.", "javax.", "org.w3c.", "org.xml."));
    }
    List<String> forbidden = never < 0 ? List.of() : codes(text.substring(never));

    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        for (String used : references(Files.readString(file))) {
          boolean ok = allowed.stream().anyMatch(a -> within(used, a));
          boolean banned = forbidden.stream().anyMatch(f -> within(used, f));
          if (!ok || banned) {
            violations.add(file.getFileName() + " uses " + used);
          }
        }
      }
    }
    assertThat(violations).as(name + " against its package-info").isEmpty();
  }

  private static boolean within(String used, String prefix) {
    return prefix.endsWith(".")
        ? used.startsWith(prefix)
        : used.equals(prefix) || used.startsWith(prefix + ".");
  }

  private static List<String> codes(String sentence) {
    List<String> found = new ArrayList<>();
    Matcher m = CODE.matcher(sentence);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  /** Imported and fully qualified names, outside comments and string literals. */
  private static List<String> references(String source) {
    String code = NOT_CODE.matcher(source).replaceAll(" ");
    List<String> used = new ArrayList<>();
    Matcher imports = IMPORT.matcher(code);
    while (imports.find()) {
      used.add(imports.group(1));
    }
    Matcher qualified = QUALIFIED.matcher(code.replaceAll("(?m)^(?:package|import)\\s[^;]*;", ""));
    while (qualified.find()) {
      used.add(qualified.group(1));
    }
    return used;
  }
}
