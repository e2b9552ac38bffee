package dev.vtscope.workloads;

/**
 * One option a workload takes ({@code --tasks 200} after {@code vtscope record ... --}): its name,
 * the kind of value it takes, the value it has when not given, and what it sets. The workload's
 * arguments are checked against its options before it runs, so that a mistyped name or value is
 * said in one line rather than ignored or thrown from the middle of a run.
 *
 * @param name the name, without its leading {@code --}
 * @param kind the kind of value
 * @param defaultValue the value when the option is not given, as a user would type it; null when
 *     the workload works it out (the description says how)
 * @param description what it sets, in a few words
 */
public record WorkloadOption(String name, Kind kind, String defaultValue, String description) {

  /** The kinds of value a workload option takes. */
  public enum Kind {
    /** A whole number of 1 or more: a count or a size. */
    COUNT("N", "a whole number of 1 or more"),
    /** A duration of 0 or more. */
    DURATION("DURATION", "a duration like 50us, 10ms or 2s");

    private final String label;
    private final String expected;

    Kind(String label, String expected) {
      this.label = label;
      this.expected = expected;
    }

    /** What the help shows for the value: {@code N}, {@code DURATION}. */
    public String label() {
      return label;
    }

    /** The kind in words, for an error: "a whole number of 1 or more". */
    public String expected() {
      return expected;
    }
  }

  /** A count option. */
  static WorkloadOption count(String name, String defaultValue, String description) {
    return new WorkloadOption(name, Kind.COUNT, defaultValue, description);
  }

  /** A duration option. */
  static WorkloadOption duration(String name, String defaultValue, String description) {
    return new WorkloadOption(name, Kind.DURATION, defaultValue, description);
  }
}
