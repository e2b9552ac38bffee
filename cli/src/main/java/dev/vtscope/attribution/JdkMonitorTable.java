package dev.vtscope.attribution;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * The synchronized blocks of a JDK release's own classes, shipped with vtscope for when no JDK of
 * the recording's release is installed: made by {@link JdkMonitorTableMaker} from several updates
 * of the release, keeping only the blocks every update has at the same bytecode indexes and lines.
 * A method whose blocks differ between updates is listed as such and not checked.
 *
 * <p>The resource {@code jdkNN-monitors.tsv.gz} holds lines of tab-separated fields: {@code U} and
 * the updates it was made from; {@code P} and a package whose classes it covers; {@code B}, a
 * class, a method's name and descriptor, and its blocks as {@code start-end:first-last} (bytecode
 * indexes, then source lines, 0 when unknown) separated by spaces; {@code V}, a class and a method
 * whose blocks differ between the updates.
 */
final class JdkMonitorTable {

  private static final Map<Integer, Optional<JdkMonitorTable>> LOADED = new HashMap<>();

  private final List<String> updates;
  private final Set<String> packages;

  /**
   * Each class's {@code B} lines, unparsed: an analysis asks for the few classes its stacks name,
   * and parsing all 2,500 blocks was a fifth of a small recording's analysis (its code runs cold).
   */
  private final Map<String, List<String>> blockLines;

  /** The classes parsed so far; guarded by this. */
  private final Map<String, Map<String, List<SynchronizedBlockLocator.Region>>> parsed =
      new HashMap<>();

  private final Map<String, Set<String>> varying;

  private JdkMonitorTable(
      List<String> updates,
      Set<String> packages,
      Map<String, List<String>> blockLines,
      Map<String, Set<String>> varying) {
    this.updates = updates;
    this.packages = packages;
    this.blockLines = blockLines;
    this.varying = varying;
  }

  /** The feature releases whose table vtscope ships. */
  static final List<Integer> SHIPPED = List.of(21);

  /** The table of a feature release, if vtscope ships one. */
  static synchronized Optional<JdkMonitorTable> of(int feature) {
    return LOADED.computeIfAbsent(feature, JdkMonitorTable::load);
  }

  /** The updates the table was made from, e.g. 21.0.2, 21.0.4, 21.0.8. */
  List<String> updates() {
    return updates;
  }

  /** Every class's blocks, by method name and descriptor: for tests. */
  Map<String, Map<String, List<SynchronizedBlockLocator.Region>>> blocks() {
    Map<String, Map<String, List<SynchronizedBlockLocator.Region>>> all = new HashMap<>();
    blockLines.keySet().forEach(c -> all.put(c, blocksOf(c)));
    return all;
  }

  /** The blocks of one class by method, parsed when first asked for. */
  private synchronized Map<String, List<SynchronizedBlockLocator.Region>> blocksOf(
      String className) {
    Map<String, List<SynchronizedBlockLocator.Region>> blocks = parsed.get(className);
    if (blocks == null) {
      blocks = new HashMap<>();
      for (String line : blockLines.getOrDefault(className, List.of())) {
        String[] f = line.split("\t");
        blocks.put(f[2], regions(f[3]));
      }
      parsed.put(className, blocks);
    }
    return blocks;
  }

  private static List<SynchronizedBlockLocator.Region> regions(String field) {
    List<SynchronizedBlockLocator.Region> regions = new ArrayList<>();
    for (String block : field.split(" ")) {
      String[] range = block.split(":");
      String[] bci = range[0].split("-");
      String[] source = range[1].split("-");
      int first = Integer.parseInt(source[0]);
      int last = Integer.parseInt(source[1]);
      regions.add(
          new SynchronizedBlockLocator.Region(
              Integer.parseInt(bci[0]),
              Integer.parseInt(bci[1]),
              first > 0 ? new LineRange(first, last) : null));
    }
    return List.copyOf(regions);
  }

  /**
   * The blocks of {@code className} (binary name with dots) as a locator, when the table covers its
   * package; a class of a covered package without blocks gets an empty one.
   */
  Optional<SynchronizedBlockLocator> locator(String className) {
    int dot = className.lastIndexOf('.');
    String pkg = dot < 0 ? "" : className.substring(0, dot);
    if (!packages.contains(pkg)) {
      return Optional.empty();
    }
    return Optional.of(
        SynchronizedBlockLocator.fromTable(
            blocksOf(className), varying.getOrDefault(className, Set.of())));
  }

  private static Optional<JdkMonitorTable> load(int feature) {
    String resource = "jdk" + feature + "-monitors.tsv.gz";
    try (InputStream raw = JdkMonitorTable.class.getResourceAsStream(resource)) {
      if (raw == null) {
        return Optional.empty();
      }
      return Optional.of(read(new GZIPInputStream(raw)));
    } catch (IOException e) {
      throw new UncheckedIOException(resource + " cannot be read", e);
    }
  }

  static JdkMonitorTable read(InputStream in) throws IOException {
    List<String> updates = new ArrayList<>();
    Set<String> packages = new HashSet<>();
    Map<String, List<String>> blockLines = new HashMap<>();
    Map<String, Set<String>> varying = new HashMap<>();
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    while ((line = lines.readLine()) != null) {
      int tab = line.indexOf('\t');
      String kind = tab < 0 ? line : line.substring(0, tab);
      switch (kind) {
        case "U" -> updates.addAll(List.of(line.substring(tab + 1).split("\t")));
        case "P" -> packages.add(line.substring(tab + 1));
        case "V" -> {
          String[] f = line.split("\t");
          varying.computeIfAbsent(f[1], c -> new HashSet<>()).add(f[2]);
        }
        case "B" -> {
          int end = line.indexOf('\t', tab + 1);
          if (end < 0 || line.indexOf('\t', end + 1) < 0) {
            throw new IOException(
                "a block line of the JDK monitor table without 4 fields: " + line);
          }
          blockLines
              .computeIfAbsent(line.substring(tab + 1, end), c -> new ArrayList<>())
              .add(line);
        }
        default -> throw new IOException("an unknown line in the JDK monitor table: " + kind);
      }
    }
    return new JdkMonitorTable(List.copyOf(updates), packages, blockLines, varying);
  }
}
