package dev.vtscope.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles small sources for the scan's tests, and packs classes into jars. */
public final class GeneratedClasses {

  private GeneratedClasses() {}

  /**
   * Compiles {@code sources} (class name to source) into a new folder under {@code dir}, for JDK
   * 21. The same sources are compiled once per build and shared by the test JVMs of both passes, as
   * the recordings are: the second pass runs on a runtime whose only javac is the build JDK's, in a
   * process of its own.
   */
  public static Path compile(Path dir, Map<String, String> sources) {
    Path jar =
        TestRecordings.sharedFile(
            new java.util.TreeMap<>(sources).toString(),
            "classes.jar",
            () -> {
              try {
                Path work = Files.createTempDirectory(dir, "compiled");
                return jar(compileNow(work, sources), work.resolve("classes.jar"), Map.of());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
      Path classes = Files.createTempDirectory(dir, "classes");
      for (java.util.zip.ZipEntry e : java.util.Collections.list(zip.entries())) {
        Path file = classes.resolve(e.getName());
        Files.createDirectories(file.getParent());
        try (java.io.InputStream in = zip.getInputStream(e)) {
          Files.copy(in, file);
        }
      }
      return classes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path compileNow(Path dir, Map<String, String> sources) {
    try {
      Path src = Files.createTempDirectory(dir, "src");
      Path classes = Files.createTempDirectory(dir, "classes");
      List<String> args =
          new ArrayList<>(List.of("--release", "21", "-g", "-d", classes.toString()));
      for (Map.Entry<String, String> e : sources.entrySet()) {
        Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, e.getValue());
        args.add(file.toString());
      }
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      int status =
          javac != null ? javac.run(null, null, null, args.toArray(String[]::new)) : javac(args);
      if (status != 0) {
        throw new IllegalStateException("the test's sources do not compile");
      }
      return classes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Runs the build JDK's javac: the tests' second pass runs on a JDK 21 runtime, which has none.
   */
  private static int javac(List<String> args) throws IOException {
    String home = System.getProperty("vtscope.buildJavaHome", "");
    Path javac = Path.of(home, "bin", "javac");
    if (home.isBlank() || !Files.isExecutable(javac)) {
      throw new IllegalStateException(
          "no javac in the running JDK nor in the build JDK (run the suite with ./run-tests)");
    }
    List<String> command = new ArrayList<>(List.of(javac.toString()));
    command.addAll(args);
    Process process = new ProcessBuilder(command).inheritIO().start();
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return -1;
    }
  }

  /** A jar of the classes under {@code classes}, at {@code jar}, with {@code extra} entries too. */
  public static Path jar(Path classes, Path jar, Map<String, byte[]> extra) {
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        zip.putNextEntry(
            new JarEntry(
                classes.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
        zip.write(Files.readAllBytes(f));
        zip.closeEntry();
      }
      for (Map.Entry<String, byte[]> e : extra.entrySet()) {
        zip.putNextEntry(new JarEntry(e.getKey()));
        zip.write(e.getValue());
        zip.closeEntry();
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
