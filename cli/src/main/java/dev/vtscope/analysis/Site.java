package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group of events that share a grouping key: a stack, a top application frame, or a reason.
 *
 * @param key a stable text form of the grouping key
 * @param durations duration statistics of the site's events
 * @param virtualThreads distinct virtual threads seen at the site
 * @param firstSeenNanos start of the first event, nanoseconds since the epoch
 * @param lastSeenNanos start of the last event, nanoseconds since the epoch
 * @param stack the stack of the site's longest event (its representative)
 * @param topApplicationFrame the first application frame of that stack, or null
 * @param truncatedStacks how many of the site's events have a truncated stack
 * @param reasons event counts by pinned reason (JDK 24+), most frequent first
 * @param blockingOperations event counts by blocking operation (JDK 24+), most frequent first
 * @param monitorClasses event counts by monitor class (monitor events), most frequent first
 * @param attribution who to blame: the culprit of the representative stack
 * @param nanosByInput of a report of several recordings, the site's total time in each, by the
 *     recording's index in {@link Analysis#inputs()}; empty for one recording (it is all {@code
 *     durations().totalNanos()})
 */
public record Site(
    String key,
    DurationSummary durations,
    int virtualThreads,
    long firstSeenNanos,
    long lastSeenNanos,
    RecordedStack stack,
    Frame topApplicationFrame,
    long truncatedStacks,
    Map<String, Long> reasons,
    Map<String, Long> blockingOperations,
    Map<String, Long> monitorClasses,
    Attribution attribution,
    Map<Integer, Long> nanosByInput) {

  public Site {
    nanosByInput = Map.copyOf(nanosByInput);
    reasons = Collections.unmodifiableMap(new LinkedHashMap<>(reasons));
    blockingOperations = Collections.unmodifiableMap(new LinkedHashMap<>(blockingOperations));
    monitorClasses = Collections.unmodifiableMap(new LinkedHashMap<>(monitorClasses));
  }

  /** The site's total time in the recording at {@code input} of the analysis' inputs. */
  public long nanosIn(int input) {
    return nanosByInput.isEmpty()
        ? (input == 0 ? durations.totalNanos() : 0)
        : nanosByInput.getOrDefault(input, 0L);
  }

  /** The most frequent pinned reason, or null. */
  public String reason() {
    return mostFrequent(reasons);
  }

  /** The most frequent blocking operation, or null. */
  public String blockingOperation() {
    return mostFrequent(blockingOperations);
  }

  /** The most frequent monitor class, or null. */
  public String monitorClass() {
    return mostFrequent(monitorClasses);
  }

  private static String mostFrequent(Map<String, Long> counts) {
    String best = null;
    long bestCount = -1;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      if (e.getValue() > bestCount
          || (e.getValue() == bestCount && e.getKey().compareTo(best) < 0)) {
        best = e.getKey();
        bestCount = e.getValue();
      }
    }
    return best;
  }

  /** Sites as reports list them: most carrier time first, then most events, then by key. */
  // By hand, not with Comparator.comparing: that makes a class at start-up (a serializable
  // lambda) that no class-data archive keeps.
  public static final java.util.Comparator<Site> BY_TIME =
      (a, b) -> {
        int c = Long.compare(b.durations().totalNanos(), a.durations().totalNanos());
        if (c == 0) {
          c = Long.compare(b.durations().count(), a.durations().count());
        }
        return c != 0 ? c : a.key().compareTo(b.key());
      };

  /** {@code counts} most frequent first, ties by value: as a site keeps its counts. */
  static Map<String, Long> sortedByCount(Map<String, Long> counts) {
    Map<String, Long> sorted = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(
            (a, b) -> {
              int c = Long.compare(b.getValue(), a.getValue());
              return c != 0 ? c : a.getKey().compareTo(b.getKey());
            })
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }
}
