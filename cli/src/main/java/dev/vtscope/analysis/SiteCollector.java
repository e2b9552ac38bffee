package dev.vtscope.analysis;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Groups timed events into {@link Site}s. Memory grows with the number of distinct sites and
 * threads, not with the number of events.
 */
final class SiteCollector {

  private final GroupBy groupBy;
  private final Map<Object, Accumulator> sites = new HashMap<>();

  SiteCollector(GroupBy groupBy) {
    this.groupBy = groupBy;
  }

  /**
   * Adds one event.
   *
   * @param reason the pinned reason, or null
   * @param blockingOperation the blocking operation, or null
   * @param monitorClass the monitor's class, or null
   */
  void add(
      long startNanos,
      long durationNanos,
      long threadId,
      RecordedStack stack,
      String reason,
      String blockingOperation,
      String monitorClass) {
    Object key = key(stack, reason);
    Accumulator site = sites.computeIfAbsent(key, k -> new Accumulator());
    site.add(startNanos, durationNanos, threadId, stack, reason, blockingOperation, monitorClass);
  }

  /** Adds every site of {@code other}, which must group the same way. */
  void addAll(SiteCollector other) {
    other.sites.forEach(
        (key, acc) -> sites.computeIfAbsent(key, k -> new Accumulator()).addAll(acc));
  }

  /** Events added so far. */
  long events() {
    long n = 0;
    for (Accumulator acc : sites.values()) {
      n += acc.durations.count();
    }
    return n;
  }

  /** The sites, by total time descending (ties: more events first, then by key). */
  List<Site> sites() {
    List<Site> result = new ArrayList<>();
    sites.forEach((key, acc) -> result.add(acc.toSite(keyText(key))));
    result.sort(
        Comparator.comparingLong((Site s) -> s.durations().totalNanos())
            .reversed()
            .thenComparing(Comparator.comparingLong((Site s) -> s.durations().count()).reversed())
            .thenComparing(Site::key));
    return result;
  }

  private Object key(RecordedStack stack, String reason) {
    return switch (groupBy) {
      case STACK -> stack.frames().stream().map(FrameKey::of).toList();
      case TOP_FRAME -> {
        // By method, as jfr view does: the lines of one method are one site.
        Frame top = stack.topApplicationFrame();
        yield top == null ? List.of() : FrameKey.of(top).withoutLine();
      }
      case REASON -> reason == null ? "" : reason;
    };
  }

  private static String keyText(Object key) {
    if (key instanceof FrameKey f) {
      return frameText(f);
    }
    if (key instanceof List<?> frames) {
      return frames.isEmpty()
          ? "<no stack>"
          : frames.stream().map(f -> frameText((FrameKey) f)).collect(Collectors.joining(" <- "));
    }
    String text = key.toString();
    return text.isEmpty() ? "<no reason recorded>" : text;
  }

  private static String frameText(FrameKey f) {
    return f.className()
        + "."
        + f.method()
        + f.descriptor()
        + (f.line() >= 0 ? ":" + f.line() : "");
  }

  private static final class Accumulator {
    private final DurationStatistics durations = new DurationStatistics();
    private final Set<Long> threads = new HashSet<>();
    private final Map<String, Long> reasons = new HashMap<>();
    private final Map<String, Long> operations = new HashMap<>();
    private final Map<String, Long> monitorClasses = new HashMap<>();
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private long longest = -1;
    private RecordedStack representative = RecordedStack.EMPTY;
    private long truncated;

    void add(
        long start,
        long duration,
        long threadId,
        RecordedStack stack,
        String reason,
        String operation,
        String monitorClass) {
      durations.add(duration);
      if (threadId >= 0) {
        threads.add(threadId);
      }
      first = Math.min(first, start);
      last = Math.max(last, start);
      if (duration > longest) {
        longest = duration;
        representative = stack;
      }
      if (stack.truncated()) {
        truncated++;
      }
      count(reasons, reason);
      count(operations, operation);
      count(monitorClasses, monitorClass);
    }

    void addAll(Accumulator other) {
      durations.addAll(other.durations);
      threads.addAll(other.threads);
      first = Math.min(first, other.first);
      last = Math.max(last, other.last);
      if (other.longest > longest) {
        longest = other.longest;
        representative = other.representative;
      }
      truncated += other.truncated;
      other.reasons.forEach((k, v) -> reasons.merge(k, v, Long::sum));
      other.operations.forEach((k, v) -> operations.merge(k, v, Long::sum));
      other.monitorClasses.forEach((k, v) -> monitorClasses.merge(k, v, Long::sum));
    }

    private static void count(Map<String, Long> counts, String value) {
      if (value != null) {
        counts.merge(value, 1L, Long::sum);
      }
    }

    Site toSite(String key) {
      return new Site(
          key,
          durations.summary(),
          threads.size(),
          first,
          last,
          representative,
          representative.topApplicationFrame(),
          truncated,
          sortedByCount(reasons),
          sortedByCount(operations),
          sortedByCount(monitorClasses));
    }

    private static Map<String, Long> sortedByCount(Map<String, Long> counts) {
      Map<String, Long> sorted = new LinkedHashMap<>();
      counts.entrySet().stream()
          .sorted(
              Map.Entry.<String, Long>comparingByValue()
                  .reversed()
                  .thenComparing(Map.Entry.comparingByKey()))
          .forEach(e -> sorted.put(e.getKey(), e.getValue()));
      return sorted;
    }
  }
}
