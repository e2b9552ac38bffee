package dev.vtscope.analysis;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * What an analysis needs besides the recordings.
 *
 * @param groupBy how events are grouped into sites
 * @param classPath jars and folders holding the recorded application's classes, searched before the
 *     recording's own {@code java.class.path}
 * @param appPackages package prefixes of the application; empty for the default rule
 * @param jdkHomes installed JDKs, in the order of preference, among which the recording's release
 *     is looked for to read the JDK's class files (the JDK running vtscope is looked at first);
 *     asked only when a JDK frame needs its class file
 * @param jdk the JDK releases where behaviour changes, from knowledge.json
 */
public record AnalysisOptions(
    GroupBy groupBy,
    List<Path> classPath,
    List<String> appPackages,
    Supplier<List<Path>> jdkHomes,
    JdkReleases jdk) {

  public AnalysisOptions {
    classPath = List.copyOf(classPath);
    appPackages = List.copyOf(appPackages);
  }

  /** The same options, grouping sites by {@code other}. */
  public AnalysisOptions withGroupBy(GroupBy other) {
    return new AnalysisOptions(other, classPath, appPackages, jdkHomes, jdk);
  }

  /**
   * The same options, looking for the recording's JDK in {@code home} first: the JDK it was
   * recorded with, when that is known; null for none.
   */
  public AnalysisOptions preferringJdk(Path home) {
    if (home == null) {
      return this;
    }
    Supplier<List<Path>> others = jdkHomes;
    Supplier<List<Path>> homes =
        () -> {
          List<Path> all = new java.util.ArrayList<>();
          all.add(home);
          all.addAll(others.get());
          return all;
        };
    return new AnalysisOptions(groupBy, classPath, appPackages, homes, jdk);
  }

  /** With the JDK releases as knowledge.json ships them. */
  public AnalysisOptions(
      GroupBy groupBy,
      List<Path> classPath,
      List<String> appPackages,
      Supplier<List<Path>> jdkHomes) {
    this(groupBy, classPath, appPackages, jdkHomes, JdkReleases.AS_SHIPPED);
  }

  /** No other JDK than the running one. */
  public AnalysisOptions(GroupBy groupBy, List<Path> classPath, List<String> appPackages) {
    this(groupBy, classPath, appPackages, List::of);
  }

  /** Grouped by {@code groupBy}, with no class path and the default application rule. */
  public static AnalysisOptions of(GroupBy groupBy) {
    return new AnalysisOptions(groupBy, List.of(), List.of());
  }
}
