package dev.vtscope.attribution;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A jar's file name read as Maven and Gradle write it: {@code artifact-version[-classifier].jar}.
 * {@code foo-1.2.3-linux-x86_64.jar} is artifact {@code foo}, version {@code 1.2.3}, classifier
 * {@code linux-x86_64}; {@code guava-33.3.1-jre.jar} is version {@code 33.3.1-jre}, as Guava
 * releases it.
 *
 * @param artifact the name before the version
 * @param version the version, never with a classifier
 * @param classifier what follows the version, or null
 */
record JarFileName(String artifact, String version, String classifier) {

  // The artifact ends at the first "-" that starts a number: commons-lang3-3.14.0 is
  // commons-lang3 at 3.14.0, foo-2fa-1.0 is foo-2fa at 1.0.
  private static final Pattern NAME = Pattern.compile("(.+?)-(\\d+(?:\\.\\w+)*(?:-.+)?)");

  // What Maven classifiers and native-library jars append after the version: an operating system
  // or architecture, natives, or a packaging. Version qualifiers (jre, android, SNAPSHOT, RC1,
  // beta) are not among them, so they stay in the version.
  private static final Pattern CLASSIFIER_WORD =
      Pattern.compile(
          "(?i)(?:linux|windows|win|osx|macos|macosx|mac|darwin|freebsd|solaris|sunos|aix)(?:32|64)?"
              + "|x86|x86_32|x86_64|x64|amd64|i386|i686|aarch64|aarch_64|arm64|arm|armv7|armhf"
              + "|ppc64|ppc64le|ppcle_64|s390_64"
              + "|s390x|riscv64|universal|natives?|sources|javadoc|tests|shaded|all|uber|standalone"
              + "|jar");

  /** The parts of {@code fileName}, or null when it has no version. */
  static JarFileName parse(String fileName) {
    String base = fileName.endsWith(".jar") ? fileName.substring(0, fileName.length() - 4) : null;
    if (base == null) {
      return null;
    }
    Matcher m = NAME.matcher(base);
    if (!m.matches()) {
      return null;
    }
    Split split = splitClassifier(m.group(2));
    return new JarFileName(m.group(1), split.version(), split.classifier());
  }

  /** A version with the classifier split off: {@code 10.10.1.1-linux64} is 10.10.1.1, linux64. */
  record Split(String version, String classifier) {}

  /** {@code version} with a classifier glued on split off; the classifier is null when none is. */
  static Split splitClassifier(String version) {
    String[] words = version.split("-");
    int at = words[0].length();
    for (int i = 1; i < words.length; i++) {
      if (CLASSIFIER_WORD.matcher(words[i]).matches()) {
        return new Split(version.substring(0, at), version.substring(at + 1));
      }
      at += 1 + words[i].length();
    }
    return new Split(version, null);
  }
}
