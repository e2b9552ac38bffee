package dev.vtscope.analysis;

import dev.vtscope.recording.Frame;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Something to tell the user, as data: which statement (a key of vtscope's wording, which lives
 * with the renderers) and the figures it names. Analysis and advice say <em>what</em>; the wording
 * says it, once, for every format.
 *
 * <p>Argument values are strings, numbers (a {@code Double} is a ratio), {@link Duration}s, {@link
 * Share}s, {@link Frame}s, nested messages (parts of a sentence chosen by the code that makes the
 * message), or lists of these.
 *
 * @param key the statement, e.g. {@code note.threshold}
 * @param args the figures it names, in the order given
 */
public record Message(String key, Map<String, Object> args) {

  public Message {
    for (Map.Entry<String, Object> e : args.entrySet()) {
      check(key, e.getKey(), e.getValue());
    }
    args = Collections.unmodifiableMap(new LinkedHashMap<>(args));
  }

  /**
   * A message from its key and alternating argument names and values, e.g. {@code
   * Message.of("note.threshold", "threshold", Duration.ofMillis(20))}.
   */
  public static Message of(String key, Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException(key + ": arguments come in name-value pairs");
    }
    Map<String, Object> args = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      args.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return new Message(key, args);
  }

  /** The key of words a report already said, read back: {@link #verbatim}. */
  public static final String VERBATIM = "verbatim";

  /**
   * Words a report wrote, read back to be said again as they were ({@code vtscope merge} keeps the
   * findings of each report it adds up): {@code text} is said as it is, and {@code figures} are the
   * figures the report gave with it, in its order.
   */
  public static Message verbatim(String text, Map<String, Object> figures) {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("text", text);
    figures.forEach(
        (name, value) -> {
          if (!name.equals("text")) {
            args.put(name, value);
          }
        });
    return new Message(VERBATIM, args);
  }

  /**
   * A part of a whole, e.g. a site's share of all pinned time; written as a percentage ({@code
   * 42%}, {@code <1%}), or {@code n/a} when the whole is 0.
   */
  public record Share(long part, long whole) {

    /** As a person reads it: {@code 42%}, {@code <1%}, {@code 100%}, or {@code n/a}. */
    public String percent() {
      return whole <= 0 ? "n/a" : percent(part / (double) whole);
    }

    /** A ratio as a whole percentage, {@code <1%} for a small non-zero one. */
    public static String percent(double ratio) {
      if (ratio >= 0.995) {
        return "100%";
      }
      if (ratio > 0 && ratio < 0.01) {
        return "<1%";
      }
      if (!(ratio > 0) || Double.isInfinite(ratio)) {
        return String.format(java.util.Locale.ROOT, "%.0f%%", ratio * 100);
      }
      // What %.0f writes, without a cold Formatter: half up, as a double's shortest digits only
      // end in exactly .5 when it is that half.
      return Math.round(ratio * 100) + "%";
    }
  }

  /** A share argument. */
  public static Share share(long part, long whole) {
    return new Share(part, whole);
  }

  /** A duration argument from nanoseconds. */
  public static Duration nanos(long nanos) {
    return Duration.ofNanos(nanos);
  }

  private static void check(String key, String name, Object value) {
    if (value instanceof List<?> list) {
      list.forEach(v -> check(key, name, v));
    } else if (!(value instanceof String
        || value instanceof Long
        || value instanceof Integer
        || value instanceof Double
        || value instanceof Duration
        || value instanceof Frame
        || value instanceof Share
        || value instanceof Message)) {
      throw new IllegalArgumentException(
          key + ": argument " + name + " is " + (value == null ? "null" : value.getClass()));
    }
  }
}
