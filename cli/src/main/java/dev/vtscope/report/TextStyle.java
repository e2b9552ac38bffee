package dev.vtscope.report;

/**
 * How text is laid out: the terminal's width and whether to use colour.
 *
 * @param width columns available; longer lines are cut with an ellipsis
 * @param color whether ANSI colour is allowed
 * @param topSites how many sites each section shows in full
 */
public record TextStyle(int width, boolean color, int topSites) {

  /** For files, pipes and golden tests: 120 columns, no colour. */
  public static final TextStyle PLAIN = new TextStyle(120, false, 10);

  String bold(String text) {
    return color ? "\u001b[1m" + text + "\u001b[0m" : text;
  }

  String yellow(String text) {
    return color ? "\u001b[33m" + text + "\u001b[0m" : text;
  }

  String dim(String text) {
    return color ? "\u001b[2m" + text + "\u001b[0m" : text;
  }
}
