package dev.vtscope.recording;

/**
 * A count and its noun as a person writes them: singular for one ({@code 1 chunk}), plural
 * otherwise ({@code 0 chunks}, {@code 3 chunks}). The reader's notes are words, not wording
 * statements, so they count for themselves.
 */
final class Counted {

  private Counted() {}

  /** {@code n} and {@code noun}, with an s unless {@code n} is one. */
  static String of(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
