package dev.vtscope.workloads;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Parsed {@code --name value} arguments of a workload, with typed getters and defaults. */
public final class WorkloadArgs {

  private final String variant;
  private final Map<String, String> values;

  private WorkloadArgs(String variant, Map<String, String> values) {
    this.variant = variant;
    this.values = values;
  }

  /** Parses {@code --variant V --key value ...}; flags without a value are "true". */
  public static WorkloadArgs parse(String[] args, String defaultVariant) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      String key = arg.substring(2);
      int eq = key.indexOf('=');
      if (eq >= 0) {
        values.put(key.substring(0, eq), key.substring(eq + 1));
      } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
        values.put(key, args[++i]);
      } else {
        values.put(key, "true");
      }
    }
    String variant = values.getOrDefault("variant", defaultVariant);
    return new WorkloadArgs(variant, values);
  }

  public String variant() {
    return variant;
  }

  public boolean flag(String key) {
    return Boolean.parseBoolean(values.getOrDefault(key, "false"));
  }

  public int integer(String key, int fallback) {
    String value = values.get(key);
    try {
      return value == null ? fallback : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + " takes a whole number, not '" + value + "'");
    }
  }

  /** A duration such as {@code 10ms}, {@code 2s} or a plain number of milliseconds. */
  public Duration duration(String key, Duration fallback) {
    String value = values.get(key);
    if (value == null) {
      return fallback;
    }
    String v = value.trim();
    try {
      if (v.endsWith("us")) {
        return Duration.ofNanos(1000 * Long.parseLong(v.substring(0, v.length() - 2).trim()));
      }
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).trim()));
      }
      if (v.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1).trim()));
      }
      return Duration.ofMillis(Long.parseLong(v));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + key + " takes a duration like 50us, 10ms or 2s, not '" + value + "'");
    }
  }
}
