package dev.vtscope.attribution;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Makes the table {@link JdkMonitorTable} reads, from several installed updates of one JDK feature
 * release ({@code tools/make-jdk-monitor-table.sh} installs them):
 *
 * <pre>java -cp vtscope.jar dev.vtscope.attribution.JdkMonitorTableMaker OUT.tsv.gz HOME...</pre>
 *
 * Every class of every module of the first image is read in each image; a method's blocks go in the
 * table when every image has them at the same bytecode indexes and lines, and the method is listed
 * as varying otherwise. Prints what it compared.
 */
public final class JdkMonitorTableMaker {

  private JdkMonitorTableMaker() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: JdkMonitorTableMaker OUT.tsv.gz JDK_HOME...");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    List<Path> homes = new ArrayList<>();
    List<String> versions = new ArrayList<>();
    int feature = -1;
    for (int i = 1; i < args.length; i++) {
      Path home = Path.of(args[i]);
      JdkImage image =
          JdkImage.at(home)
              .orElseThrow(() -> new IllegalArgumentException("not a JDK image: " + home));
      if (feature >= 0 && image.feature() != feature) {
        throw new IllegalArgumentException("the JDKs are of different feature releases");
      }
      feature = image.feature();
      homes.add(image.home());
      versions.add(image.version());
    }
    List<FileSystem> images = new ArrayList<>();
    for (Path home : homes) {
      images.add(
          FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", home.toString())));
    }

    TreeSet<String> packages = new TreeSet<>();
    TreeMap<String, TreeMap<String, String>> same = new TreeMap<>();
    TreeMap<String, TreeSet<String>> varying = new TreeMap<>();
    long classes = 0;
    long methodsWithBlocks = 0;
    try (Stream<Path> files = Files.walk(images.get(0).getPath("/modules"))) {
      for (Path file :
          (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
        String relative = file.subpath(2, file.getNameCount()).toString(); // past /modules/<module>
        if (relative.endsWith("module-info.class") || relative.endsWith("package-info.class")) {
          continue;
        }
        String className = relative.substring(0, relative.length() - 6).replace('/', '.');
        int dot = className.lastIndexOf('.');
        packages.add(dot < 0 ? "" : className.substring(0, dot));
        classes++;
        List<Map<String, String>> perImage = new ArrayList<>();
        for (FileSystem image : images) {
          Path same0 = image.getPath(file.toString());
          perImage.add(Files.isRegularFile(same0) ? blocks(Files.readAllBytes(same0)) : null);
        }
        Map<String, String> first = perImage.get(0);
        for (Map.Entry<String, String> method : first.entrySet()) {
          boolean everywhere =
              perImage.stream()
                  .allMatch(
                      m -> m != null && Objects.equals(m.get(method.getKey()), method.getValue()));
          if (everywhere) {
            same.computeIfAbsent(className, c -> new TreeMap<>())
                .put(method.getKey(), method.getValue());
            methodsWithBlocks++;
          } else {
            varying.computeIfAbsent(className, c -> new TreeSet<>()).add(method.getKey());
          }
        }
        // a method with blocks in another update only
        for (Map<String, String> other : perImage.subList(1, perImage.size())) {
          if (other == null) {
            continue;
          }
          for (String method : other.keySet()) {
            if (!first.containsKey(method)) {
              varying.computeIfAbsent(className, c -> new TreeSet<>()).add(method);
            }
          }
        }
      }
    }
    for (FileSystem image : images) {
      image.close();
    }

    try (OutputStream file = Files.newOutputStream(out);
        GZIPOutputStream gzip = new GZIPOutputStream(file);
        PrintWriter w =
            new PrintWriter(new java.io.OutputStreamWriter(gzip, StandardCharsets.UTF_8))) {
      w.print("U");
      versions.forEach(v -> w.print("\t" + v));
      w.print("\n");
      packages.forEach(p -> w.print("P\t" + p + "\n"));
      same.forEach(
          (c, methods) ->
              methods.forEach((m, b) -> w.print("B\t" + c + "\t" + m + "\t" + b + "\n")));
      varying.forEach((c, methods) -> methods.forEach(m -> w.print("V\t" + c + "\t" + m + "\n")));
    }
    long varyingMethods = varying.values().stream().mapToLong(TreeSet::size).sum();
    System.out.printf(
        "JDK %s: %d classes in %d packages; %d methods with synchronized blocks alike in every"
            + " update, %d whose blocks differ between updates (not checked); wrote %s (%d bytes)%n",
        String.join(", ", versions),
        classes,
        packages.size(),
        methodsWithBlocks,
        varyingMethods,
        out,
        Files.size(out));
  }

  /** A class's methods with blocks, each as "start-end:first-last ...". */
  private static Map<String, String> blocks(byte[] bytes) {
    Map<String, String> result = new TreeMap<>();
    SynchronizedBlockLocator locator;
    try {
      locator = new SynchronizedBlockLocator(bytes);
    } catch (IllegalArgumentException e) {
      return result;
    }
    for (MethodCode method : MethodCode.read(bytes)) {
      List<SynchronizedBlockLocator.Region> regions = locator.regions(method.nameAndDescriptor());
      if (regions.isEmpty()) {
        continue;
      }
      StringBuilder text = new StringBuilder();
      for (SynchronizedBlockLocator.Region r : regions) {
        if (!text.isEmpty()) {
          text.append(' ');
        }
        text.append(r.startBci()).append('-').append(r.endBci()).append(':');
        text.append(r.lines() == null ? "0-0" : r.lines().first() + "-" + r.lines().last());
      }
      result.put(method.nameAndDescriptor(), text.toString());
    }
    return result;
  }
}
