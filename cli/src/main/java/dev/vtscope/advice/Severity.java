package dev.vtscope.advice;

import java.util.Locale;

/** How much a finding matters, lowest first; {@code vtscope check --fail-on} compares them. */
public enum Severity {
  /** Worth knowing; nothing to fix. */
  INFO,
  /** A small share of carrier capacity is at stake. */
  LOW,
  /** At least the medium share of carrier capacity is at stake (knowledge.json). */
  MEDIUM,
  /** At least the high share, carriers starved, or tasks rejected. */
  HIGH;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a label case-insensitively; null when it names no severity. */
  public static Severity parse(String text) {
    for (Severity s : values()) {
      if (s.label().equalsIgnoreCase(text.trim())) {
        return s;
      }
    }
    return null;
  }
}
