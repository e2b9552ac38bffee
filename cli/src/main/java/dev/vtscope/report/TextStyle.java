package dev.vtscope.report;

/**
 * How text is laid out: the terminal's width and whether to use colour.
 *
 * @param width columns available, 0 for no limit: longer text lines wrap
 * @param color whether ANSI colour is allowed
 * @param topSites how many sites each section shows in full
 * @param cutFrames whether stack frames longer than the width are cut with an ellipsis (on a
 *     terminal) rather than printed whole (in files and pipes, where nothing may be lost)
 * @param stackDepth how many frames of a site's stack to show: {@link #SHORT_STACKS} for the frames
 *     the site names and a few around them, {@link #WHOLE_STACKS} for all; the frames the site
 *     names are shown whatever the depth
 */
public record TextStyle(int width, boolean color, int topSites, boolean cutFrames, int stackDepth) {

  /** Stacks cut after the frames a site names (the default). */
  public static final int SHORT_STACKS = -1;

  /** Every recorded frame. */
  public static final int WHOLE_STACKS = Integer.MAX_VALUE;

  /** For files, pipes and golden tests: text wrapped at 120 columns, frames whole, no colour. */
  public static final TextStyle PLAIN = new TextStyle(120, false, 10, false, SHORT_STACKS);

  public TextStyle(int width, boolean color, int topSites, boolean cutFrames) {
    this(width, color, topSites, cutFrames, SHORT_STACKS);
  }

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
