package dev.vtscope.report;

/**
 * Text made safe for GitHub-flavoured Markdown: inline code that may hold backticks, and table
 * cells that may hold pipes and line breaks.
 */
final class Markdown {

  /** GitHub rejects comments longer than 65,536 characters; reports stay well under it. */
  static final int MAX_CHARS = 60_000;

  private Markdown() {}

  /** {@code text} as inline code, with a fence longer than any run of backticks inside. */
  static String code(String text) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(longest + 1);
    String pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
    return fence + pad + text + pad + fence;
  }

  /** Plain text in a table cell or paragraph: Markdown's own characters escaped. */
  static String text(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        // $ too: GitHub renders $…$ as mathematics (a nested class is Outer$Inner)
        case '\\', '`', '*', '[', ']', '<', '>', '|', '$' -> out.append('\\').append(c);
        case '\n', '\r' -> out.append(' ');
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A table cell that is inline code: pipes inside code spans must still be escaped in tables. */
  static String codeCell(String text) {
    return code(text).replace("|", "\\|");
  }
}
