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
  private final Map<String, Map<String, List<SynchronizedBlockLocator.Region>>> blocks;
  private final Map<String, Set<String>> varying;

  private JdkMonitorTable(
      List<String> updates,
      Set<String> packages,
      Map<String, Map<String, List<SynchronizedBlockLocator.Region>>> blocks,
      Map<String, Set<String>> varying) {
    this.updates = updates;
    this.packages = packages;
    this.blocks = blocks;
    this.varying = varying;
  }

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
    return blocks;
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
            blocks.getOrDefault(className, Map.of()), varying.getOrDefault(className, Set.of())));
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
    Map<String, Map<String, List<SynchronizedBlockLocator.Region>>> blocks = new HashMap<>();
    Map<String, Set<String>> varying = new HashMap<>();
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    while ((line = lines.readLine()) != null) {
      String[] f = line.split("\t");
      switch (f[0]) {
        case "U" -> updates.addAll(List.of(f).subList(1, f.length));
        case "P" -> packages.add(f[1]);
        case "V" -> varying.computeIfAbsent(f[1], c -> new HashSet<>()).add(f[2]);
        case "B" -> {
          List<SynchronizedBlockLocator.Region> regions = new ArrayList<>();
          for (String block : f[3].split(" ")) {
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
          blocks.computeIfAbsent(f[1], c -> new HashMap<>()).put(f[2], List.copyOf(regions));
        }
        default -> throw new IOException("an unknown line in the JDK monitor table: " + f[0]);
      }
    }
    return new JdkMonitorTable(List.copyOf(updates), packages, blocks, varying);
  }
}
