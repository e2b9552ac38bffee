package dev.vtscope.agent;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's options, as {@code -javaagent:vtscope-agent.jar=port=9464,interval=10s} gives them.
 *
 * @param host the address the endpoint listens on; loopback unless told otherwise
 * @param port the endpoint's port; 0 takes a free one
 * @param pinnedThreshold the shortest pin recorded
 * @param interval how often events are analysed and the counters updated
 * @param series how many holders get series of their own; later ones are one "other" series
 * @param micrometer whether the meters are also registered with the application's Micrometer, when
 *     it has it
 * @param openTelemetry whether the instruments are also made with the application's OpenTelemetry,
 *     when it has it
 */
record AgentOptions(
    String host,
    int port,
    Duration pinnedThreshold,
    Duration interval,
    int series,
    boolean micrometer,
    boolean openTelemetry) {

  static final AgentOptions DEFAULTS =
      new AgentOptions(
          "127.0.0.1", 9464, Duration.ofMillis(20), Duration.ofSeconds(10), 50, true, true);

  private static final String NAMES =
      "host, port, threshold, interval, series, micrometer, opentelemetry";

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");

  /** An option that cannot be used, said in one line. */
  static final class BadOption extends Exception {
    BadOption(String message) {
      super(message);
    }
  }

  /**
   * Parses the agent's argument: {@code name=value} pairs separated by commas; null or empty for
   * none.
   */
  static AgentOptions parse(String args) throws BadOption {
    AgentOptions o = DEFAULTS;
    if (args == null || args.isBlank()) {
      return o;
    }
    // an option given twice is a mistake whichever way it is read: the first or the last may be
    // the one meant
    java.util.Map<String, String> given = new java.util.HashMap<>();
    for (String pair : args.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new BadOption("'" + pair + "' is not name=value (options: " + NAMES + ")");
      }
      String name = pair.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = pair.substring(eq + 1).trim();
      String before = given.putIfAbsent(name, pair.trim());
      if (before != null) {
        throw new BadOption(
            name + " is given twice (" + before + ", " + pair.trim() + "): give it once");
      }
      o =
          switch (name) {
            case "host" -> {
              if (value.isEmpty()) {
                throw new BadOption("host takes an address or a name of this machine, not ''");
              }
              yield new AgentOptions(
                  value,
                  o.port,
                  o.pinnedThreshold,
                  o.interval,
                  o.series,
                  o.micrometer,
                  o.openTelemetry);
            }
            case "port" ->
                new AgentOptions(
                    o.host,
                    number(name, value, 0, 65535),
                    o.pinnedThreshold,
                    o.interval,
                    o.series,
                    o.micrometer,
                    o.openTelemetry);
            case "threshold" ->
                new AgentOptions(
                    o.host,
                    o.port,
                    duration(name, value),
                    o.interval,
                    o.series,
                    o.micrometer,
                    o.openTelemetry);
            case "interval" -> {
              Duration every = duration(name, value);
              if (every.toMillis() < 1000) {
                throw new BadOption("interval must be 1s or more, not " + value);
              }
              yield new AgentOptions(
                  o.host,
                  o.port,
                  o.pinnedThreshold,
                  every,
                  o.series,
                  o.micrometer,
                  o.openTelemetry);
            }
            case "series" ->
                new AgentOptions(
                    o.host,
                    o.port,
                    o.pinnedThreshold,
                    o.interval,
                    number(name, value, 1, 10_000),
                    o.micrometer,
                    o.openTelemetry);
            case "micrometer" ->
                new AgentOptions(
                    o.host,
                    o.port,
                    o.pinnedThreshold,
                    o.interval,
                    o.series,
                    bool(name, value),
                    o.openTelemetry);
            case "opentelemetry" ->
                new AgentOptions(
                    o.host,
                    o.port,
                    o.pinnedThreshold,
                    o.interval,
                    o.series,
                    o.micrometer,
                    bool(name, value));
            default ->
                throw new BadOption("unknown option '" + name + "' (options: " + NAMES + ")");
          };
    }
    return o;
  }

  private static int number(String name, String value, int min, int max) throws BadOption {
    try {
      int n = Integer.parseInt(value);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new BadOption(
        name + " takes a number from " + min + " to " + max + ", not '" + value + "'");
  }

  private static boolean bool(String name, String value) throws BadOption {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new BadOption(name + " takes true or false, not '" + value + "'");
    };
  }

  private static Duration duration(String name, String value) throws BadOption {
    Matcher m = DURATION.matcher(value);
    if (!m.matches()) {
      throw new BadOption(name + " takes a duration like 20ms, 10s or 1m, not '" + value + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      default -> Duration.ofMinutes(n);
    };
  }
}
