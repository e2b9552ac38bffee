package dev.vtscope.analysis;

/**
 * A plain statement about what a recording can or cannot show, as data: its wording lives with the
 * renderers.
 *
 * @param id a stable identifier, e.g. {@code threshold}
 * @param severity how much it matters
 * @param message what to say, with the figures it names
 */
public record Note(String id, Severity severity, Message message) {

  /** How much a note matters. */
  public enum Severity {
    INFO,
    WARNING
  }
}
