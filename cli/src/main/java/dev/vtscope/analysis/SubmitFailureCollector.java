package dev.vtscope.analysis;

import dev.vtscope.recording.SubmitFailedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Groups submit failures by exception message and stack. */
final class SubmitFailureCollector {

  /**
   * What groups rejections: the message with what differs between equal ones replaced, and the
   * stack.
   */
  record Key(String message, List<FrameKey> frames) {
    static Key of(String message, dev.vtscope.recording.RecordedStack stack) {
      return new Key(pattern(message), stack.frames().stream().map(FrameKey::of).toList());
    }
  }

  private final Map<Key, Group> groups = new LinkedHashMap<>();

  /** When tasks were rejected, the first {@link CarrierTimeline#MAX_MARKS}. */
  final java.util.List<Long> times = new java.util.ArrayList<>();

  void add(SubmitFailedEvent event) {
    if (times.size() < CarrierTimeline.MAX_MARKS) {
      times.add(event.startNanos());
    }
    Key key = Key.of(event.exceptionMessage(), event.stack());
    groups.computeIfAbsent(key, k -> new Group(event)).add(event);
  }

  /**
   * The message with what differs between otherwise equal rejections replaced: object identities
   * ({@code @7ef27d7f}), hidden-class addresses ({@code 0x000000000b14c1c8}) and counts.
   */
  static String pattern(String message) {
    if (message == null) {
      return null;
    }
    String hex = HEX.matcher(message).replaceAll("0x…");
    String identities = IDENTITY.matcher(hex).replaceAll("@…");
    return COUNT.matcher(identities).replaceAll("N");
  }

  private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
  private static final Pattern IDENTITY = Pattern.compile("@[0-9a-fA-F]+");
  private static final Pattern COUNT = Pattern.compile("(?<=[ =])\\d+(?=[,\\]])");

  /** Adds the failures of {@code other}, another chunk of the same recording. */
  void addAll(SubmitFailureCollector other) {
    addAll(other, 0);
  }

  /**
   * Adds the failures of {@code other}, the recording at {@code input} of several: thread ids are
   * per JVM, so they are offset to stay distinct, as sites' are.
   */
  void addAll(SubmitFailureCollector other, int input) {
    long offset = (long) input << 48;
    for (long t : other.times) {
      if (times.size() < CarrierTimeline.MAX_MARKS) {
        times.add(t);
      }
    }
    other.groups.forEach(
        (key, group) -> {
          Group mine = groups.get(key);
          if (mine == null) {
            mine = new Group(group.first);
            groups.put(key, mine);
          }
          mine.addAll(group, offset);
        });
  }

  long events() {
    return groups.values().stream().mapToLong(g -> g.events).sum();
  }

  /** The groups, most events first. */
  List<SubmitFailureGroup> groups() {
    List<SubmitFailureGroup> result = new ArrayList<>();
    for (Group g : groups.values()) {
      result.add(
          new SubmitFailureGroup(
              pattern(g.first.exceptionMessage()),
              g.first.exceptionMessage(),
              g.events,
              g.threads.size(),
              g.first.stack(),
              g.firstSeen,
              g.lastSeen));
    }
    result.sort(SubmitFailureGroup.BY_EVENTS);
    return result;
  }

  private static final class Group {
    /** The earliest rejection (the first seen of equally early ones): the group's example. */
    private SubmitFailedEvent first;

    private final LongSet threads = new LongSet();
    private long events;
    private long firstSeen = Long.MAX_VALUE;
    private long lastSeen = Long.MIN_VALUE;

    Group(SubmitFailedEvent first) {
      this.first = first;
    }

    void add(SubmitFailedEvent e) {
      if (e.startNanos() < first.startNanos()) {
        first = e;
      }
      events++;
      threads.add(e.virtualThreadId());
      firstSeen = Math.min(firstSeen, e.startNanos());
      lastSeen = Math.max(lastSeen, e.startNanos());
    }

    void addAll(Group other, long threadOffset) {
      if (other.first.startNanos() < first.startNanos()) {
        first = other.first;
      }
      events += other.events;
      threads.addAll(other.threads, threadOffset);
      firstSeen = Math.min(firstSeen, other.firstSeen);
      lastSeen = Math.max(lastSeen, other.lastSeen);
    }
  }
}
