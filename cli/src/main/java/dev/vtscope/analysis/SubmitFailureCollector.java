package dev.vtscope.analysis;

import dev.vtscope.recording.SubmitFailedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Groups submit failures by exception message and stack. */
final class SubmitFailureCollector {

  /**
   * What groups rejections: the message with what differs between equal ones replaced, and the
   * stack.
   */
  record Key(String message, List<FrameKey> frames) {
    static Key of(String message, dev.vtscope.recording.RecordedStack stack) {
      return of(message, frameKeys(stack));
    }

    /** The key of a rejection with {@code message} whose stack's frames have {@code frames}. */
    static Key of(String message, List<FrameKey> frames) {
      return new Key(pattern(message), frames);
    }

    // written out, as FrameKey's are: the generated record methods run several times slower in the
    // quick compiler's code, and a recording's every rejection is looked up by its key
    @Override
    public boolean equals(Object o) {
      return this == o
          || (o instanceof Key k
              && java.util.Objects.equals(message, k.message)
              && frames.equals(k.frames));
    }

    @Override
    public int hashCode() {
      return 31 * java.util.Objects.hashCode(message) + frames.hashCode();
    }
  }

  private static List<FrameKey> frameKeys(dev.vtscope.recording.RecordedStack stack) {
    return stack.frames().stream().map(FrameKey::of).toList();
  }

  private final Map<Key, Group> groups = new LinkedHashMap<>();

  /**
   * The frames' keys of the stacks seen last, by the stack's identity: a reader makes each stack of
   * a chunk once, and a chunk's rejections share a few. Cleared past {@link #MAX_STACKS} stacks.
   */
  private final Map<dev.vtscope.recording.RecordedStack, List<FrameKey>> framesOfStack =
      new java.util.IdentityHashMap<>();

  private static final int MAX_STACKS = 1 << 10;

  /** When tasks were rejected, the first {@link CarrierTimeline#MAX_MARKS}. */
  final java.util.List<Long> times = new java.util.ArrayList<>();

  void add(SubmitFailedEvent event) {
    if (times.size() < CarrierTimeline.MAX_MARKS) {
      times.add(event.startNanos());
    }
    List<FrameKey> frames = framesOfStack.get(event.stack());
    if (frames == null) {
      if (framesOfStack.size() >= MAX_STACKS) {
        framesOfStack.clear();
      }
      frames = frameKeys(event.stack());
      framesOfStack.put(event.stack(), frames);
    }
    Key key = Key.of(event.exceptionMessage(), frames);
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
    // three passes, in the order the rules apply, by hand over arrays: a rejection's message holds
    // the pool's whole state, and three regular expressions over it cost a fifth of reading a
    // recording with thousands of rejections; no rule makes the text longer, so each pass writes
    // into an array of the message's length
    char[] a = message.toCharArray();
    char[] b = new char[a.length];
    int n = hexNumbers(a, a.length, b);
    n = identities(b, n, a);
    n = counts(a, n, b);
    return new String(b, 0, n);
  }

  /**
   * {@code 0x} and hex digits, as {@code 0x…}: from {@code n} chars of {@code in} to {@code out}.
   */
  private static int hexNumbers(char[] in, int n, char[] out) {
    int w = 0;
    for (int i = 0; i < n; i++) {
      if (i + 2 < n && in[i] == '0' && in[i + 1] == 'x' && isHex(in[i + 2])) {
        int end = i + 3;
        while (end < n && isHex(in[end])) {
          end++;
        }
        out[w++] = '0';
        out[w++] = 'x';
        out[w++] = '…';
        i = end - 1;
      } else {
        out[w++] = in[i];
      }
    }
    return w;
  }

  /** {@code @} and hex digits (an identity hash), as {@code @…}. */
  private static int identities(char[] in, int n, char[] out) {
    int w = 0;
    for (int i = 0; i < n; i++) {
      if (i + 1 < n && in[i] == '@' && isHex(in[i + 1])) {
        int end = i + 2;
        while (end < n && isHex(in[end])) {
          end++;
        }
        out[w++] = '@';
        out[w++] = '…';
        i = end - 1;
      } else {
        out[w++] = in[i];
      }
    }
    return w;
  }

  /** Digits after a space or {@code =} and before {@code ,} or {@code ]}, as {@code N}. */
  private static int counts(char[] in, int n, char[] out) {
    int w = 0;
    for (int i = 0; i < n; i++) {
      if (i > 0 && (in[i - 1] == ' ' || in[i - 1] == '=') && isDigit(in[i])) {
        int end = i + 1;
        while (end < n && isDigit(in[end])) {
          end++;
        }
        if (end < n && (in[end] == ',' || in[end] == ']')) {
          out[w++] = 'N';
        } else {
          for (int k = i; k < end; k++) {
            out[w++] = in[k];
          }
        }
        i = end - 1;
      } else {
        out[w++] = in[i];
      }
    }
    return w;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

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
