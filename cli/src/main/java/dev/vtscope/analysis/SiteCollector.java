package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects timed events by stack and reason, the finest grouping, and groups them into {@link
 * Site}s at the end, when everything the grouping needs (the JDK release, the class path) is known.
 * Memory grows with the number of distinct stacks and threads, not with the number of events.
 */
final class SiteCollector {

  /** A stack's frames and a reason; its hash is computed once, as every event looks it up. */
  private static final class Key {
    private final List<FrameKey> frames;
    private final String reason;
    private final int hash;

    Key(List<FrameKey> frames, String reason) {
      this.frames = frames;
      this.reason = reason;
      this.hash = 31 * frames.hashCode() + java.util.Objects.hashCode(reason);
    }

    String reason() {
      return reason;
    }

    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof Key k
              && k.hash == hash
              && java.util.Objects.equals(k.reason, reason)
              && k.frames.equals(frames));
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** What a group of events is keyed by, and who to blame for it. */
  interface Grouping {

    /** The group's key as text. */
    String key(RecordedStack stack, String reason, Attribution attribution);

    /** Who to blame for events with this stack, reason and (monitor events) monitor class. */
    Attribution attribution(RecordedStack stack, String reason, String monitorClass);
  }

  /** The most stacks {@link #groups} holds before it starts again. */
  private static final int STACKS_CACHED = 10_000;

  /** The most reasons cached for one stack: a recording's texts are few, a damaged one's not. */
  private static final int REASONS_CACHED = 16;

  private final Map<Key, Accumulator> byStack = new HashMap<>();

  /**
   * By stack (the decoder makes one instance per stack and chunk), the groups of its events, one
   * per reason: finding a group by its key hashes and compares the stack's frames.
   */
  private final Map<RecordedStack, Cached> groups = new java.util.IdentityHashMap<>();

  /** A group of a stack's events, with the next reason's group of that stack. */
  private record Cached(String reason, Accumulator group, Cached next) {}

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
    Cached first = groups.get(stack);
    Cached cached = first;
    int reasons = 0;
    while (cached != null && !java.util.Objects.equals(cached.reason(), reason)) {
      cached = cached.next();
      reasons++;
    }
    if (cached == null) {
      if (groups.size() >= STACKS_CACHED || reasons >= REASONS_CACHED) {
        groups.clear();
        first = null;
      }
      Accumulator group =
          byStack.computeIfAbsent(new Key(frameKeys(stack), reason), k -> new Accumulator());
      cached = new Cached(reason, group, first);
      groups.put(stack, cached);
    }
    cached
        .group()
        .add(startNanos, durationNanos, threadId, stack, reason, blockingOperation, monitorClass);
  }

  /**
   * The frame keys of a stack's frames. A key is made once a frame: frames are shared between the
   * stacks of a recording, and so are the keys, which with many distinct stacks of some 40 frames
   * each are most of what the collector holds.
   */
  private List<FrameKey> frameKeys(RecordedStack stack) {
    List<dev.vtscope.recording.Frame> frames = stack.frames();
    FrameKey[] keys = new FrameKey[frames.size()];
    if (frameKeys.size() >= FRAMES_CACHED) {
      frameKeys.clear();
    }
    for (int i = 0; i < keys.length; i++) {
      keys[i] = frameKeys.computeIfAbsent(frames.get(i), FrameKey::of);
    }
    return List.of(keys);
  }

  private static final int FRAMES_CACHED = 100_000;

  private final Map<dev.vtscope.recording.Frame, FrameKey> frameKeys =
      new java.util.IdentityHashMap<>();

  /**
   * Adds every event of {@code other}, a collector of the same recording (another chunk of it): its
   * time stays the recording's own, not another input's.
   */
  void addAll(SiteCollector other) {
    other.byStack.forEach(
        (key, acc) -> byStack.computeIfAbsent(key, k -> new Accumulator()).addAll(acc));
  }

  /**
   * Adds every event of {@code other}, a collector of another JVM: thread ids are per JVM, so they
   * are offset by {@code input} to stay distinct.
   */
  void addAll(SiteCollector other, int input) {
    long offset = (long) input << 48;
    other.byStack.forEach(
        (key, acc) ->
            byStack.computeIfAbsent(key, k -> new Accumulator()).addAll(acc, offset, input));
  }

  /**
   * The tree of every stack collected, weighted by time, with the culprit {@code grouping}'s
   * attribution names for each stack.
   */
  StackTree tree(Grouping grouping) {
    List<StackTree.Weighted> stacks = new ArrayList<>();
    // a frame's name is made once: stacks share their frames
    Map<dev.vtscope.recording.Frame, String> names = new java.util.IdentityHashMap<>();
    byStack.forEach(
        (key, acc) -> {
          Attribution attribution =
              grouping.attribution(
                  acc.representative, key.reason(), acc.mostFrequentMonitorClass());
          List<dev.vtscope.recording.Frame> frames = acc.representative.frames();
          List<String> outermostFirst = new ArrayList<>(frames.size());
          for (int i = frames.size() - 1; i >= 0; i--) {
            outermostFirst.add(
                names.computeIfAbsent(frames.get(i), dev.vtscope.recording.Frame::qualifiedMethod));
          }
          int holder =
              attribution == null || attribution.culprit().frameIndex() < 0
                  ? -1
                  : frames.size() - 1 - attribution.culprit().frameIndex();
          stacks.add(
              new StackTree.Weighted(
                  outermostFirst,
                  acc.durations.total(),
                  acc.durations.count(),
                  attribution == null ? null : attribution.culprit().kind(),
                  holder));
        });
    return StackTree.of(stacks);
  }

  /** The sites of {@code grouping}, by total time descending (ties: more events, then key). */
  List<Site> sites(Grouping grouping) {
    Map<String, Accumulator> groups = new LinkedHashMap<>();
    byStack.forEach(
        (key, acc) -> {
          Attribution attribution =
              grouping.attribution(
                  acc.representative, key.reason(), acc.mostFrequentMonitorClass());
          String group = grouping.key(acc.representative, key.reason(), attribution);
          groups.computeIfAbsent(group, g -> new Accumulator()).addAll(acc);
        });
    List<Site> result = new ArrayList<>();
    groups.forEach(
        (group, acc) ->
            result.add(
                acc.toSite(
                    group,
                    grouping.attribution(
                        acc.representative,
                        acc.representativeReason,
                        acc.mostFrequentMonitorClass()))));
    result.sort(Site.BY_TIME);
    return result;
  }

  private static final class Accumulator {
    private final DurationStatistics durations = new DurationStatistics();
    private final LongSet threads = new LongSet();
    private final Counts reasons = new Counts();
    private final Counts operations = new Counts();
    private final Counts monitorClasses = new Counts();
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private long longest = -1;
    private RecordedStack representative = RecordedStack.EMPTY;
    private String representativeReason;
    private long truncated;

    /** Of several recordings' events, the time in each (by input index); empty for one. */
    private final Map<Integer, Long> nanosByInput = new HashMap<>();

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
        representativeReason = reason;
      }
      if (stack.truncated()) {
        truncated++;
      }
      reasons.add(reason);
      operations.add(operation);
      monitorClasses.add(monitorClass);
    }

    /** Adds events of the same recording, or of recordings already merged. */
    void addAll(Accumulator other) {
      merge(other, 0);
      other.nanosByInput.forEach((input, nanos) -> nanosByInput.merge(input, nanos, Long::sum));
    }

    /**
     * Adds the events of the recording at {@code input}, its thread ids offset to stay distinct.
     */
    void addAll(Accumulator other, long threadOffset, int input) {
      merge(other, threadOffset);
      if (other.nanosByInput.isEmpty()) {
        nanosByInput.merge(input, other.durations.total(), Long::sum);
      } else {
        other.nanosByInput.forEach((i, nanos) -> nanosByInput.merge(i, nanos, Long::sum));
      }
    }

    private void merge(Accumulator other, long threadOffset) {
      durations.addAll(other.durations);
      threads.addAll(other.threads, threadOffset);
      first = Math.min(first, other.first);
      last = Math.max(last, other.last);
      if (other.longest > longest) {
        longest = other.longest;
        representative = other.representative;
        representativeReason = other.representativeReason;
      }
      truncated += other.truncated;
      reasons.addAll(other.reasons);
      operations.addAll(other.operations);
      monitorClasses.addAll(other.monitorClasses);
    }

    String mostFrequentMonitorClass() {
      return monitorClasses.asMap().entrySet().stream()
          .max(
              (a, b) -> {
                int c = Long.compare(a.getValue(), b.getValue());
                return c != 0 ? c : b.getKey().compareTo(a.getKey());
              })
          .map(Map.Entry::getKey)
          .orElse(null);
    }

    /**
     * Counts by text. The text counted last is counted again without a lookup when it comes again
     * as the same instance, as the decoder hands each text out: a chunk's pins repeat a few texts,
     * and a map's merge with a boxed count was some 3% of reading a gigabyte of them.
     */
    private static final class Counts {
      private final Map<String, long[]> counts = new HashMap<>();
      private String last;
      private long[] lastCount;

      void add(String value) {
        if (value == null) {
          return;
        }
        if (value == last) {
          lastCount[0]++;
          return;
        }
        long[] count = counts.computeIfAbsent(value, k -> new long[1]);
        count[0]++;
        last = value;
        lastCount = count;
      }

      void addAll(Counts other) {
        other.counts.forEach((k, v) -> counts.computeIfAbsent(k, x -> new long[1])[0] += v[0]);
      }

      Map<String, Long> asMap() {
        Map<String, Long> map = new HashMap<>();
        counts.forEach((k, v) -> map.put(k, v[0]));
        return map;
      }
    }

    Site toSite(String key, Attribution attribution) {
      return new Site(
          key,
          durations.summary(),
          threads.size(),
          first,
          last,
          representative,
          representative.topApplicationFrame(),
          truncated,
          Site.sortedByCount(reasons.asMap()),
          Site.sortedByCount(operations.asMap()),
          Site.sortedByCount(monitorClasses.asMap()),
          attribution,
          nanosByInput);
    }
  }
}
