package dev.vtscope.workloads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload's arguments, {@code --name value} or {@code --name=value}, checked against the options
 * the workload declares ({@link Workload#options()}) and read back typed. The one parser of
 * workload arguments: {@code vtscope record} checks them with it before it starts the workload's
 * JVM, where they are parsed again.
 */
public final class WorkloadArgs {

  /** What every workload takes besides its own options. */
  private static final String VARIANT = "variant";

  private static final String JSON = "json";

  /** What is wrong with a workload's arguments, said in one line. */
  public static final class BadArgumentException extends IllegalArgumentException {
    private final String unknownOption;

    BadArgumentException(String message, String unknownOption) {
      super(message);
      this.unknownOption = unknownOption;
    }

    /**
     * The option the workload does not have, as typed ({@code --takss}), or null when the arguments
     * are wrong in another way.
     */
    public String unknownOption() {
      return unknownOption;
    }
  }

  private final Workload workload;
  private final String variant;
  private final boolean variantGiven;
  private final boolean json;
  private final Map<String, String> values;

  private WorkloadArgs(
      Workload workload,
      String variant,
      boolean variantGiven,
      boolean json,
      Map<String, String> values) {
    this.workload = workload;
    this.variant = variant;
    this.variantGiven = variantGiven;
    this.json = json;
    this.values = values;
  }

  /** Whether {@code args} ask for the workload's options rather than a run. */
  public static boolean asksForHelp(List<String> args) {
    return args.contains("--help") || args.contains("-h");
  }

  /**
   * Parses {@code args} for {@code workload}.
   *
   * @throws BadArgumentException on an argument that is not an option of the workload, an option
   *     without its value, or a value of the wrong kind
   */
  public static WorkloadArgs parse(List<String> args, Workload workload) {
    String variant = workload.variants().get(0);
    boolean variantGiven = false;
    boolean json = false;
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        throw new BadArgumentException(
            "unexpected argument '" + arg + "' (options are --NAME VALUE)", null);
      }
      String key = arg.substring(2);
      String value = null;
      int eq = key.indexOf('=');
      if (eq >= 0) {
        value = key.substring(eq + 1);
        key = key.substring(0, eq);
      }
      if (key.equals(JSON)) {
        json = value == null || Boolean.parseBoolean(value);
        continue;
      }
      if (value == null && i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
        value = args.get(++i);
      }
      if (key.equals(VARIANT)) {
        if (value == null || !workload.variants().contains(value)) {
          throw new BadArgumentException(
              "--variant takes one of "
                  + String.join(", ", workload.variants())
                  + (value == null ? "" : ", not '" + value + "'"),
              null);
        }
        variant = value;
        variantGiven = true;
        continue;
      }
      WorkloadOption option = option(workload, key);
      if (option == null) {
        throw new BadArgumentException(
            "no option '--" + key + "'; its options: " + String.join(", ", optionNames(workload)),
            "--" + key);
      }
      if (value == null) {
        throw new BadArgumentException(
            "--" + key + " needs a value: " + option.kind().expected(), null);
      }
      check(option, value);
      values.put(key, value);
    }
    return new WorkloadArgs(workload, variant, variantGiven, json, values);
  }

  /** Every option name {@code workload} takes, with its leading {@code --}. */
  public static List<String> optionNames(Workload workload) {
    List<String> names = new ArrayList<>();
    names.add("--" + VARIANT);
    workload.options().forEach(o -> names.add("--" + o.name()));
    names.add("--" + JSON);
    return names;
  }

  /** The workload's options, a line each, as {@code -- --help} prints them. */
  public static String usage(Workload workload) {
    List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {
          "--variant V",
          String.join(", ", workload.variants())
              + " (default "
              + workload.variants().get(0)
              + "; vtscope record takes it before --)"
        });
    for (WorkloadOption o : workload.options()) {
      rows.add(
          new String[] {
            "--" + o.name() + " " + o.kind().label(),
            o.description()
                + (o.defaultValue() == null ? "" : " (default " + o.defaultValue() + ")")
          });
    }
    rows.add(new String[] {"--json", "print the workload's figures as JSON"});
    int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
    StringBuilder out =
        new StringBuilder("Options of workload " + workload.name() + " (after --):\n");
    for (String[] row : rows) {
      out.append("  ").append(row[0]).append(" ".repeat(width - row[0].length() + 2));
      out.append(row[1]).append('\n');
    }
    return out.toString();
  }

  public String variant() {
    return variant;
  }

  /**
   * Whether the arguments named the variant. {@code vtscope record} names it itself, from its own
   * {@code --variant}, which also names the recording's file: one given after {@code --} would make
   * the file and the run disagree.
   */
  public boolean variantGiven() {
    return variantGiven;
  }

  /** Whether the figures are to be printed as JSON. */
  public boolean json() {
    return json;
  }

  /** The count option {@code key}, or its declared default. */
  public int integer(String key) {
    return count(key, declared(key, true).defaultValue());
  }

  /** The count option {@code key}, or {@code fallback}, which the workload works out. */
  public int integer(String key, int fallback) {
    declared(key, false);
    return values.containsKey(key) ? count(key, null) : fallback;
  }

  /** The duration option {@code key}, or its declared default. */
  public Duration duration(String key) {
    String value = values.getOrDefault(key, declared(key, true).defaultValue());
    return parseDuration(value);
  }

  private int count(String key, String defaultValue) {
    return Integer.parseInt(values.getOrDefault(key, defaultValue));
  }

  /**
   * The option {@code key} of this workload, which must say whether it has a default: a workload
   * reads only what it declares, so its help and its checks say all it takes.
   */
  private WorkloadOption declared(String key, boolean withDefault) {
    WorkloadOption option = option(workload, key);
    if (option == null || (option.defaultValue() != null) != withDefault) {
      throw new IllegalStateException(
          "workload "
              + workload.name()
              + " reads --"
              + key
              + (option == null ? ", which it does not declare" : " with another default"));
    }
    return option;
  }

  private static WorkloadOption option(Workload workload, String key) {
    for (WorkloadOption o : workload.options()) {
      if (o.name().equals(key)) {
        return o;
      }
    }
    return null;
  }

  private static void check(WorkloadOption option, String value) {
    boolean valid =
        switch (option.kind()) {
          case COUNT -> {
            try {
              yield Integer.parseInt(value) >= 1;
            } catch (NumberFormatException e) {
              yield false;
            }
          }
          case DURATION -> parseDuration(value) != null;
        };
    if (!valid) {
      throw new BadArgumentException(
          "--" + option.name() + " takes " + option.kind().expected() + ", not '" + value + "'",
          null);
    }
  }

  /**
   * A duration such as {@code 50us}, {@code 10ms}, {@code 2s} or a plain number of milliseconds;
   * null when it is none, or negative.
   */
  private static Duration parseDuration(String value) {
    String v = value.trim();
    try {
      Duration d;
      if (v.endsWith("us")) {
        d = Duration.ofNanos(1000 * Long.parseLong(v.substring(0, v.length() - 2).trim()));
      } else if (v.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).trim()));
      } else if (v.endsWith("s")) {
        d = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1).trim()));
      } else {
        d = Duration.ofMillis(Long.parseLong(v));
      }
      return d.isNegative() ? null : d;
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }
}
