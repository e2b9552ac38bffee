package dev.vtscope.agent;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * An HTTP/1.x request head as the metrics endpoint reads it: the request line, and of the header
 * fields only what decides whether the connection stays open. It is read strictly (RFC 9112): what
 * a lenient reading could take for another request is refused, never guessed at.
 *
 * @param method the method, case as sent ({@code get} is not {@code GET})
 * @param target the request target as sent, not decoded
 * @param keepAlive whether the connection may carry another request after the answer: HTTP/1.1
 *     without {@code Connection: close}, and no body announced (the endpoint reads none)
 */
record RequestHead(String method, String target, boolean keepAlive) {

  /** A head that cannot be answered as a request, with the status that says why. */
  static final class Rejected extends Exception {
    private final int status;

    Rejected(int status, String why) {
      super(why, null, false, false);
      this.status = status;
    }

    int status() {
      return status;
    }
  }

  /** Characters of a method or a field name (RFC 9110's token). */
  private static final String TOKEN_MARKS = "!#$%&'*+-.^_`|~";

  /**
   * How many empty lines may come before the request line. RFC 9112 (2.2) has a server ignore at
   * least one, which some clients send after a previous request; a few more are borne, and what
   * goes beyond is a bad request rather than a wait.
   */
  static final int EMPTY_LINES_BEFORE = 4;

  /**
   * Where the head in {@code bytes[0, length)} starts: after at most {@value #EMPTY_LINES_BEFORE}
   * whole empty lines (CRLF or a bare LF).
   */
  static int start(byte[] bytes, int length) {
    int start = 0;
    for (int skipped = 0; skipped < EMPTY_LINES_BEFORE; skipped++) {
      if (start < length && bytes[start] == '\n') {
        start += 1;
      } else if (start + 1 < length && bytes[start] == '\r' && bytes[start + 1] == '\n') {
        start += 2;
      } else {
        break;
      }
    }
    return start;
  }

  /**
   * Where the head in {@code bytes[0, length)} ends: the index after its empty line, or -1 when no
   * line has been empty yet. Lines end with CRLF or a bare LF; the empty lines before the request
   * line that {@link #start} skips are not its end.
   */
  static int end(byte[] bytes, int length) {
    int lineStart = start(bytes, length);
    for (int i = lineStart; i < length; i++) {
      if (bytes[i] == '\n') {
        int lineEnd = i > lineStart && bytes[i - 1] == '\r' ? i - 1 : i;
        if (lineEnd == lineStart) {
          return i + 1;
        }
        lineStart = i + 1;
      }
    }
    return -1;
  }

  /**
   * Reads the head in {@code bytes[0, end)}, {@code end} as {@link #end} found it.
   *
   * @throws Rejected with 400 for what is not a request line and header fields, 505 for an HTTP
   *     version other than 1.0 and 1.1
   */
  static RequestHead parse(byte[] bytes, int end) throws Rejected {
    // ISO-8859-1 maps every byte to one char: what is checked below is the bytes as sent.
    int start = start(bytes, end);
    String[] lines =
        new String(bytes, start, end - start, StandardCharsets.ISO_8859_1).split("\r?\n", -1);
    String[] parts = lines[0].split(" ", -1);
    if (parts.length != 3) {
      throw new Rejected(400, "not METHOD TARGET VERSION");
    }
    String method = parts[0];
    String target = parts[1];
    String version = parts[2];
    if (!isToken(method)) {
      throw new Rejected(400, "not a method");
    }
    if (target.isEmpty() || !target.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new Rejected(400, "not a request target");
    }
    if (!target.startsWith("/") && !absolute(target)) {
      // the authority form of CONNECT and the asterisk form of OPTIONS: nothing served here
      throw new Rejected(400, "the request target is not a path or a URL");
    }
    if (!version.matches("HTTP/[0-9]\\.[0-9]")) {
      throw new Rejected(400, "not an HTTP version");
    }
    if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
      throw new Rejected(505, "HTTP/1.0 and HTTP/1.1 only");
    }
    boolean keepAlive = version.equals("HTTP/1.1");
    // The last two lines are the empty line and what follows it: nothing.
    for (int i = 1; i < lines.length - 2; i++) {
      String line = lines[i];
      int colon = line.indexOf(':');
      if (colon <= 0 || !isToken(line.substring(0, colon))) {
        // also a line folded onto the previous one, which RFC 9112 has servers refuse
        throw new Rejected(400, "not a header field");
      }
      String value = line.substring(colon + 1);
      if (!value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c != 0x7f))) {
        throw new Rejected(400, "a control character in a header field");
      }
      String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
      value = value.strip().toLowerCase(Locale.ROOT);
      boolean body =
          name.equals("transfer-encoding") || (name.equals("content-length") && !value.equals("0"));
      boolean close =
          name.equals("connection")
              && Arrays.stream(value.split(",")).anyMatch(option -> option.strip().equals("close"));
      if (body || close) {
        // a body is not read: the connection cannot tell where the next request starts
        keepAlive = false;
      }
    }
    return new RequestHead(method, target, keepAlive);
  }

  /**
   * The target's path without its query, in the origin form ({@code /metrics?x=1}) or the absolute
   * form ({@code http://host:9464/metrics}), not decoded.
   */
  String path() {
    String path = target;
    if (absolute(target)) {
      int slash = target.indexOf('/', target.indexOf("//") + 2);
      path = slash < 0 ? "/" : target.substring(slash);
    }
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }

  private static boolean absolute(String target) {
    String lower = target.toLowerCase(Locale.ROOT);
    return lower.startsWith("http://") || lower.startsWith("https://");
  }

  private static boolean isToken(String s) {
    return !s.isEmpty()
        && s.chars()
            .allMatch(
                c ->
                    (c >= 'a' && c <= 'z')
                        || (c >= 'A' && c <= 'Z')
                        || (c >= '0' && c <= '9')
                        || TOKEN_MARKS.indexOf(c) >= 0);
  }
}
