package dev.vtscope.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When each of the most recently sampled virtual threads was last sampled on a CPU: what tells a
 * carrier that kept the same virtual thread between two thread dumps because it ran (sampled) from
 * one held by a blocked one, when the host gave the JVM little CPU. Bounded: the {@link #LIMIT}
 * virtual threads sampled last, whatever the recording's length. Builders merge in any order to the
 * same answers: {@link #seal} keeps exactly the {@link #LIMIT} latest, which every merge keeps.
 */
final class RecentSamples {

  /** How many virtual threads are remembered: far more than carriers run at once. */
  static final int LIMIT = 4096;

  private final Map<Long, Long> latest = new HashMap<>();

  void sample(long virtualThreadId, long atNanos) {
    latest.merge(virtualThreadId, atNanos, Math::max);
    if (latest.size() > 2 * LIMIT) {
      keepLatest();
    }
  }

  void addAll(RecentSamples other) {
    other.latest.forEach((id, at) -> latest.merge(id, at, Math::max));
    if (latest.size() > 2 * LIMIT) {
      keepLatest();
    }
  }

  /** Ends taking samples: keeps exactly the {@link #LIMIT} latest, whatever came in which order. */
  void seal() {
    keepLatest();
  }

  /**
   * Whether {@code virtualThreadId} was sampled after {@code afterNanos}, among the {@link #LIMIT}
   * virtual threads sampled last (once {@link #seal sealed}: a query changes nothing).
   */
  boolean sampledAfter(long virtualThreadId, long afterNanos) {
    Long at = latest.get(virtualThreadId);
    return at != null && at > afterNanos;
  }

  /** Drops all but the {@link #LIMIT} latest (the later time, then the greater id, first). */
  private void keepLatest() {
    if (latest.size() <= LIMIT) {
      return;
    }
    List<Map.Entry<Long, Long>> entries = new ArrayList<>(latest.entrySet());
    entries.sort(
        (a, b) -> {
          int c = Long.compare(b.getValue(), a.getValue());
          return c != 0 ? c : Long.compare(b.getKey(), a.getKey());
        });
    for (Map.Entry<Long, Long> e : entries.subList(LIMIT, entries.size())) {
      latest.remove(e.getKey());
    }
  }
}
