package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * vtscope's reader of a JDK's {@code lib/modules} against the oracle, the JDK's {@code jrt} file
 * system opened on the same JDK: every class file of {@code java.base} and {@code java.sql}, byte
 * for byte, on the JDK running the tests and on the JDK 21 they record with.
 */
class JimageFileTest {

  static Stream<Path> jdkHomes() {
    return Stream.of(
            Path.of(System.getProperty("java.home")),
            TestRecordings.jdk21Java().getParent().getParent())
        .distinct();
  }

  @ParameterizedTest
  @MethodSource("jdkHomes")
  void readsEveryClassFileAsTheJrtFileSystemDoes(Path home) throws IOException {
    List<String> differences = new ArrayList<>();
    int compared = 0;
    try (JimageFile image = JimageFile.open(home.resolve("lib/modules")).orElseThrow();
        FileSystem jrt =
            FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", home.toString()))) {
      for (String module : List.of("java.base", "java.sql")) {
        Path root = jrt.getPath("/modules", module);
        List<Path> classFiles;
        try (Stream<Path> files = Files.walk(root)) {
          classFiles =
              files
                  .filter(f -> f.toString().endsWith(".class"))
                  .filter(f -> !f.getFileName().toString().equals("module-info.class"))
                  .toList();
        }
        for (Path file : classFiles) {
          String className = root.relativize(file).toString().replace('/', '.');
          className = className.substring(0, className.length() - ".class".length());
          JimageFile.Lookup lookup = image.classFile(className);
          compared++;
          if (!lookup.readable()
              || lookup.bytes().isEmpty()
              || !Arrays.equals(lookup.bytes().get(), Files.readAllBytes(file))) {
            differences.add(className);
          }
        }
      }
      assertThat(compared).as("class files compared").isGreaterThan(5_000);
      assertThat(differences).as("class files that differ from jrt's").isEmpty();

      for (String absent :
          List.of(
              "java.lang.NoSuchClass", "java.nosuchpackage.X", "Unnamed", "java.lang.Object$")) {
        JimageFile.Lookup lookup = image.classFile(absent);
        assertThat(lookup.readable()).as(absent).isTrue();
        assertThat(lookup.bytes()).as(absent).isEmpty();
      }
    }
  }

  @Test
  void anImageItDoesNotKnowIsLeftToTheJrtFileSystem(@TempDir Path dir) throws IOException {
    Path modules = Path.of(System.getProperty("java.home"), "lib", "modules");
    byte[] header = new byte[64];
    try (var in = Files.newInputStream(modules)) {
      assertThat(in.readNBytes(header, 0, header.length)).isEqualTo(header.length);
    }

    Path truncated = dir.resolve("truncated");
    Files.write(truncated, header);
    assertThat(JimageFile.open(truncated)).as("an index cut short").isEmpty();

    byte[] otherVersion = header.clone();
    for (int i = 4; i < 8; i++) {
      otherVersion[i] ^= 0x7; // the version int: its major half, whichever the byte order
    }
    Path version = dir.resolve("version");
    Files.write(version, otherVersion);
    assertThat(JimageFile.open(version)).as("another version").isEmpty();

    Path text = dir.resolve("text");
    Files.writeString(text, "not an image at all, but long enough to hold a header");
    assertThat(JimageFile.open(text)).as("another format").isEmpty();
    assertThat(JimageFile.open(dir.resolve("missing"))).as("no file").isEmpty();
  }

  /**
   * A runtime linked with compressed resources: this reader leaves them to the {@code jrt} file
   * system, through which {@link JdkImage} still finds the class files. Needs the running JDK's
   * {@code jlink} (a JDK runtime without it, such as the tests' JDK 21, has nothing to link with).
   */
  @Test
  void compressedResourcesAreLeftToTheJrtFileSystem(@TempDir Path dir) throws Exception {
    Path jlink = Path.of(System.getProperty("java.home"), "bin", "jlink");
    assumeTrue(Files.isExecutable(jlink), "no jlink in the JDK running the tests");
    Path runtime = dir.resolve("runtime");
    Process p =
        new ProcessBuilder(
                jlink.toString(),
                "--add-modules",
                "java.base",
                "--compress",
                "zip-6",
                "--output",
                runtime.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(output).isZero();

    try (JimageFile image = JimageFile.open(runtime.resolve("lib/modules")).orElseThrow()) {
      JimageFile.Lookup lookup = image.classFile("java.lang.Object");
      assertThat(lookup.readable()).isFalse();
      assertThat(lookup.bytes()).isEmpty();
    }
    try (JdkImage jdk = JdkImage.at(runtime).orElseThrow()) {
      byte[] expected =
          Files.readAllBytes(
              FileSystems.getFileSystem(URI.create("jrt:/"))
                  .getPath("/modules/java.base/java/lang/Object.class"));
      assertThat(jdk.find("java.lang.Object"))
          .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(expected));
    }
  }

  @Test
  void aDamagedIndexMakesItsLookupsUnreadableRatherThanWrong(@TempDir Path dir) throws IOException {
    Path modules = Path.of(System.getProperty("java.home"), "lib", "modules");
    Path damaged = dir.resolve("modules");
    try (var in = Files.newInputStream(modules)) {
      byte[] start = in.readNBytes(8 << 20);
      // the offsets table, right after the header and the redirect table, turned to 0xFF
      int tableLength = ByteBuffer.wrap(start, 16, 4).order(nativeOrder(start)).getInt();
      int offsets = 28 + 4 * tableLength;
      Arrays.fill(start, offsets, offsets + 4 * tableLength, (byte) 0xFF);
      Files.write(damaged, start);
    }
    try (JimageFile image = JimageFile.open(damaged).orElseThrow()) {
      JimageFile.Lookup lookup = image.classFile("java.lang.Object");
      assertThat(lookup.readable()).isFalse();
      assertThat(lookup.bytes()).isEmpty();
    }
  }

  private static ByteOrder nativeOrder(byte[] header) {
    int little = ByteBuffer.wrap(header, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    return little == 0xCAFEDADA ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
  }
}
