package dev.vtscope.scan;

import java.util.List;

/**
 * What {@code vtscope scan} found.
 *
 * @param archives the jars and folders read, in class path order
 * @param findings the findings, riskiest first
 * @param classes the classes read
 * @param methods the methods read
 * @param depth the most calls followed from a monitor to a blocking call
 * @param listings the calls of the methods {@code --calls-of} named, in the order asked; empty when
 *     none was
 */
public record ScanResult(
    List<ScannedArchive> archives,
    List<ScanFinding> findings,
    int classes,
    long methods,
    int depth,
    List<CallListing> listings) {

  public ScanResult {
    archives = List.copyOf(archives);
    findings = List.copyOf(findings);
    listings = List.copyOf(listings);
  }

  /** The archives that could not be read, or only in part. */
  public List<ScannedArchive> problems() {
    return archives.stream().filter(a -> a.problem() != null).toList();
  }
}
