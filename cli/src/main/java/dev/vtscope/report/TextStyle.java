package dev.vtscope.report;

/**
 * How text is laid out: the terminal's width and whether to use colour.
 *
 * @param width columns available, 0 for no limit: longer text lines wrap
 * @param color whether ANSI colour is allowed
 * @param topSites how many sites each section shows in full
 * @param cutFrames whether stack frames longer than the width are cut with an ellipsis (on a
 *     terminal) rather than printed whole (in files and pipes, where nothing may be lost)
 */
public record TextStyle(int width, boolean color, int topSites, boolean cutFrames) {

  /** For files, pipes and golden tests: text wrapped at 120 columns, frames whole, no colour. */
  public static final TextStyle PLAIN = new TextStyle(120, false, 10, false);

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
