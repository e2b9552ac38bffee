package dev.vtscope.scan;

/**
 * The JDK feature releases a finding pins on.
 *
 * @param first the first, the release virtual threads are final in
 * @param last the last, or 0 for every release from {@code first} on
 */
public record Releases(int first, int last) {

  /** {@code 21-23}, or {@code 21+}. */
  public String display() {
    return last == 0 ? first + "+" : first == last ? Integer.toString(first) : first + "-" + last;
  }
}
