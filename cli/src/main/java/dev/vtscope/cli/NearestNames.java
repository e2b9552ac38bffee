package dev.vtscope.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The names a mistyped command, option or value was probably meant to be: those within a few typing
 * slips (a letter missing, extra, wrong, or two letters swapped, as in {@code --fromat}), and those
 * the word abbreviates ({@code --rec} for {@code --recursive}). Picocli suggests options by their
 * first two letters only, which misses swapped letters; this serves options, commands and values
 * alike, so every "did you mean" reads the same.
 */
final class NearestNames {

  /** Beyond this many suggestions the message stops being a hint. */
  private static final int MOST = 3;

  private NearestNames() {}

  /**
   * The names nearest to {@code typed}, nearest first, at most three. Each group is one thing with
   * its names (an option's {@code -o} and {@code --output}, a command and its aliases): it is
   * suggested once, by its nearest name, its first name on a tie.
   */
  static List<String> to(String typed, List<List<String>> groups) {
    String word = comparable(typed);
    record Near(String name, int distance, int order) {}
    List<Near> near = new ArrayList<>();
    for (List<String> names : groups) {
      Near best = null;
      for (String name : names) {
        String candidate = comparable(name);
        int distance = distance(word, candidate);
        boolean close = distance <= candidate.length() / 3;
        boolean abbreviates = word.length() >= 2 && candidate.startsWith(word);
        if ((close || abbreviates) && (best == null || distance < best.distance())) {
          best = new Near(name, distance, near.size());
        }
      }
      if (best != null) {
        near.add(best);
      }
    }
    return near.stream()
        .sorted(Comparator.comparingInt(Near::distance).thenComparingInt(Near::order))
        .limit(MOST)
        .map(Near::name)
        .toList();
  }

  /** "; did you mean 'a' or 'b'?", or nothing when there is no suggestion. */
  static String didYouMean(List<String> names) {
    if (names.isEmpty()) {
      return "";
    }
    return "; did you mean "
        + String.join(" or ", names.stream().map(n -> "'" + n + "'").toList())
        + "?";
  }

  /** Options compare without their dashes; case counts only in one-letter names ({@code -V}). */
  private static String comparable(String name) {
    String bare = name.replaceFirst("^-+", "");
    return bare.length() > 1 ? bare.toLowerCase(Locale.ROOT) : bare;
  }

  /** Edits from one word to the other: insertions, deletions, changes and adjacent swaps. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int change = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + change);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
