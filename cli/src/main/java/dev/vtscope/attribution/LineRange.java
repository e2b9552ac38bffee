package dev.vtscope.attribution;

/**
 * Source lines of a {@code synchronized} block, first to last, inclusive.
 *
 * @param first the line of the {@code synchronized} statement
 * @param last the last line inside the block
 */
public record LineRange(int first, int last) {

  @Override
  public String toString() {
    return first == last ? "line " + first : "lines " + first + "-" + last;
  }
}
