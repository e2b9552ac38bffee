package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real thread dumps of {@code src/test/resources/threaddumps/<jdk>/<scenario>/}: one moment of
 * a small program per scenario (a monitor cycle, a lock cycle, carriers held by class
 * initialisation, a thread name with an ESC character…), taken on JDK 21.0.2, 21.0.8 and 25 as
 * {@code Thread.print -l} ({@code thread-print.txt}), {@code Thread.dump_to_file} ({@code
 * dump-to-file.txt}) and {@code Thread.dump_to_file -format=json} ({@code dump-to-file.json}), one
 * after the other; and a few more, each with a README saying how it was made.
 */
public final class Samples {

  private Samples() {}

  public static Path root() {
    try {
      return Path.of(Samples.class.getResource("/threaddumps").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every sample file with this name, as {@code jdk/scenario/name}. */
  public static Stream<String> named(String name) {
    try (Stream<Path> files = Files.walk(root())) {
      List<String> found =
          files
              .filter(f -> f.getFileName().toString().equals(name))
              .map(f -> root().relativize(f).toString().replace('\\', '/'))
              .sorted()
              .toList();
      assertThat(found).as(name).isNotEmpty();
      return found.stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static InputStream open(String path) {
    InputStream in = Samples.class.getResourceAsStream("/threaddumps/" + path);
    assertThat(in).as(path).isNotNull();
    return in;
  }

  public static byte[] bytes(String path) throws IOException {
    try (InputStream in = open(path)) {
      return in.readAllBytes();
    }
  }

  public static String text(String path) throws IOException {
    return new String(bytes(path), StandardCharsets.UTF_8);
  }

  public static ThreadDump json(String path) throws IOException {
    try (InputStream in = open(path)) {
      return ThreadDumpJson.read(in);
    }
  }

  /** A sample of any format, read as {@code analyze} reads a file. */
  public static ThreadDump any(String path) throws IOException {
    try (InputStream in = open(path)) {
      return ThreadDumpFiles.read(in);
    } catch (NotAThreadDumpException e) {
      throw new AssertionError(path, e);
    }
  }

  public static ThreadDump plain(String path) throws IOException {
    return ThreadDumpText.read(new java.io.StringReader(text(path)));
  }

  public static DumpedThread named(ThreadDump dump, String name) {
    return dump.threads().stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no thread " + name + " in " + dump.threads()));
  }

  /** The JDK a sample was taken on: 21 or 25. */
  public static int feature(String path) {
    return path.startsWith("jdk25/") ? 25 : 21;
  }
}
