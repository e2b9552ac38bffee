package dev.vtscope.analysis;

import java.nio.file.Path;
import java.util.List;

/**
 * What an analysis needs besides the recordings.
 *
 * @param groupBy how events are grouped into sites
 * @param classPath jars and folders holding the recorded application's classes, searched before the
 *     recording's own {@code java.class.path}
 * @param appPackages package prefixes of the application; empty for the default rule
 */
public record AnalysisOptions(GroupBy groupBy, List<Path> classPath, List<String> appPackages) {

  public AnalysisOptions {
    classPath = List.copyOf(classPath);
    appPackages = List.copyOf(appPackages);
  }

  /** Grouped by {@code groupBy}, with no class path and the default application rule. */
  public static AnalysisOptions of(GroupBy groupBy) {
    return new AnalysisOptions(groupBy, List.of(), List.of());
  }
}
