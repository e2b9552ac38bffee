package dev.vtscope.report;

/**
 * Text from a recording or a thread dump, made safe for the medium it is printed in. A recording is
 * untrusted input: whoever wrote the program chose its class, method, thread, file and monitor
 * names, and a name may hold a terminal's control sequences, a line break that ends a Markdown
 * table, characters XML forbids, or a hundred kilobytes. Every renderer sends such text through the
 * one method of its medium here; JSON and the HTML page keep names exact, their writer escapes
 * them.
 *
 * <p>Characters no medium shows as themselves (C0 and C1 controls, DEL, the bidirectional
 * overrides, isolates and marks, line and paragraph separators, a lone surrogate) are written
 * visibly, as {@code \n}, {@code \t}, {@code \r}, or a backslash, {@code u} and four hex digits
 * (ESC as backslash-{@code u001B}), never raw; OpenMetrics, whose parsers read a label back, has
 * them replaced instead ({@link #openMetrics}).
 */
public final class Escaping {

  /**
   * Names longer than this are shortened in the middle in text, the explorer, watch and Markdown;
   * JSON and the HTML page keep them whole.
   */
  static final int LONGEST_NAME = 256;

  private static final int HEAD = 150;
  private static final int TAIL = 80;

  private Escaping() {}

  /**
   * A name for a terminal, a text file or a pipe: hidden and control characters escaped visibly,
   * and a name longer than {@value #LONGEST_NAME} characters cut in the middle, with how much was
   * left out said there.
   */
  public static String terminal(String name) {
    return name == null ? null : visible(shortened(name));
  }

  /**
   * A line of vtscope's own words for a terminal that may hold names (an error naming a file found
   * in a folder, an option as typed): control characters escaped visibly, as {@link #terminal}
   * does, and nothing cut, so that the line stays one line and whole.
   */
  public static String terminalLine(String line) {
    return line == null ? null : visible(line);
  }

  /**
   * {@code name} cut in the middle when longer than {@value #LONGEST_NAME} characters: its start
   * and end, and between them how many characters were left out of how many. JSON keeps the whole.
   */
  static String shortened(String name) {
    if (name == null || name.length() <= LONGEST_NAME) {
      return name;
    }
    int head = HEAD;
    int tail = name.length() - TAIL;
    // never half a surrogate pair
    if (Character.isHighSurrogate(name.charAt(head - 1))) {
      head--;
    }
    if (Character.isLowSurrogate(name.charAt(tail))) {
      tail++;
    }
    return name.substring(0, head)
        + "…["
        + (tail - head)
        + " of "
        + name.length()
        + " characters left out]…"
        + name.substring(tail);
  }

  /** {@code text} as GitHub-flavoured Markdown inline code: a fence longer than any run inside. */
  static String markdownCode(String text) {
    String shown = visible(shortened(text));
    int longest = 0;
    int run = 0;
    for (int i = 0; i < shown.length(); i++) {
      run = shown.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(longest + 1);
    String pad = shown.startsWith("`") || shown.endsWith("`") ? " " : "";
    return fence + pad + shown + pad + fence;
  }

  /** Inline code in a table cell: a pipe must be escaped even inside a code span there. */
  static String markdownCodeCell(String text) {
    return markdownCode(text).replace("|", "\\|");
  }

  /**
   * Plain text in a Markdown paragraph or table cell: Markdown's own characters escaped, so a name
   * cannot start emphasis, a link, HTML, mathematics or a mention, nor end the cell; line breaks
   * and other hidden characters are shown as escapes.
   */
  static String markdownText(String text) {
    String shown = visible(text);
    StringBuilder out = new StringBuilder(shown.length() + 16);
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      switch (c) {
        // $ too: GitHub renders $…$ as mathematics (a nested class is Outer$Inner); @ would
        // mention a user in a pull-request comment
        case '\\', '`', '*', '_', '~', '[', ']', '<', '>', '|', '$', '&', '@' ->
            out.append('\\').append(c);
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Text for an XML 1.0 attribute or element: characters XML cannot hold (most controls, a lone
   * surrogate, U+FFFE and U+FFFF) and the other hidden ones escaped visibly; tab and line breaks
   * are kept, the XML writer escapes them and {@code <}, {@code &} and quotes.
   */
  static String xml(String text) {
    return escape(text, true);
  }

  /**
   * A label value or help text of OpenMetrics: backslash, double quote and line feed as the format
   * escapes them, so that a parser reads them back as they were; every other hidden character
   * replaced by U+FFFD, the replacement character.
   *
   * <p>Why U+FFFD: the format's only escapes are those three. Writing ESC as the text
   * backslash-{@code u001B} (as text reports show it) made a parser read six other characters back,
   * while a line feed came back as itself: a label no longer stood for the name by one rule.
   * Writing it raw is what the grammar allows, but a scrape read in a terminal would then run the
   * name's control sequences, and a lone surrogate cannot be written in UTF-8 at all. So a label is
   * the name exactly, but for each character no medium carries raw (C0 and C1 controls other than
   * the line feed, DEL, bidirectional controls, line and paragraph separators, a lone surrogate),
   * which becomes U+FFFD, as a decoder writes what it cannot carry.
   */
  static String openMetrics(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        default -> {
          if (hidden(text, i, false)) {
            out.append('\uFFFD');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** {@code text} with every hidden or control character written as an escape. */
  static String visible(String text) {
    return escape(text, false);
  }

  private static String escape(String text, boolean keepLineBreaks) {
    int first = 0;
    while (first < text.length() && !hidden(text, first, keepLineBreaks)) {
      first++;
    }
    if (first == text.length()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!hidden(text, i, keepLineBreaks)) {
        out.append(c);
      } else {
        out.append(escaped(c));
      }
    }
    return out.toString();
  }

  /**
   * A hidden character as its escape: {@code \n}, {@code \r}, {@code \t}, else backslash-u and hex.
   */
  private static String escaped(char c) {
    return switch (c) {
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      default -> String.format(java.util.Locale.ROOT, "\\u%04X", (int) c);
    };
  }

  /** Whether the character at {@code i} is one no medium may carry raw. */
  private static boolean hidden(String text, int i, boolean keepLineBreaks) {
    char c = text.charAt(i);
    if (c < 0x20) {
      return !(keepLineBreaks && (c == '\n' || c == '\r' || c == '\t'));
    }
    if (c < 0x7F) {
      return false;
    }
    if (c <= 0x9F) {
      return true; // DEL and the C1 controls, U+009B (CSI) among them
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
    }
    return c == 0x061C
        || c == 0x200E
        || c == 0x200F
        || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2066 && c <= 0x2069)
        || c == 0x2028
        || c == 0x2029
        || c == 0xFFFE
        || c == 0xFFFF;
  }
}
