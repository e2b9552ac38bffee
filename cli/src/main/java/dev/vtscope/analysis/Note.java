package dev.vtscope.analysis;

/**
 * A plain statement about what a recording can or cannot show.
 *
 * @param id a stable identifier, e.g. {@code threshold}
 * @param severity how much it matters
 * @param message one or two sentences for a person
 */
public record Note(String id, Severity severity, String message) {

  /** How much a note matters. */
  public enum Severity {
    INFO,
    WARNING
  }
}
