package dev.vtscope.agent;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One answer of the metrics endpoint, written as HTTP/1.1 whatever the request's version (RFC 9110
 * has a server send its own).
 *
 * @param status the status code
 * @param contentType the body's media type
 * @param body the body, also when not sent: a {@code HEAD} answer has the length of the {@code GET}
 *     one
 * @param allow the methods an {@code Allow} header lists, or null for none
 */
record Response(int status, String contentType, byte[] body, String allow) {

  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

  /** A 200 with {@code body}. */
  static Response ok(String contentType, byte[] body) {
    return new Response(200, contentType, body, null);
  }

  /** An error, its status, reason and {@code why} as one line of text. */
  static Response error(int status, String why) {
    byte[] text =
        (status + " " + reason(status) + ": " + why + "\n").getBytes(StandardCharsets.UTF_8);
    return new Response(status, "text/plain; charset=utf-8", text, null);
  }

  /** The same answer with an {@code Allow} header listing {@code methods}. */
  Response allowing(String methods) {
    return new Response(status, contentType, body, methods);
  }

  /**
   * The bytes to write.
   *
   * @param withBody false for the answer to {@code HEAD}
   * @param close whether the connection is closed after it, which {@code Connection: close} says
   */
  ByteBuffer bytes(boolean withBody, boolean close) {
    StringBuilder head =
        new StringBuilder(200)
            .append("HTTP/1.1 ")
            .append(status)
            .append(' ')
            .append(reason(status))
            .append("\r\nDate: ")
            .append(HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)))
            .append("\r\nContent-Type: ")
            .append(contentType)
            .append("\r\nContent-Length: ")
            .append(body.length)
            .append("\r\n");
    if (allow != null) {
      head.append("Allow: ").append(allow).append("\r\n");
    }
    if (close) {
      head.append("Connection: close\r\n");
    }
    byte[] headBytes = head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    ByteBuffer bytes = ByteBuffer.allocate(headBytes.length + (withBody ? body.length : 0));
    bytes.put(headBytes);
    if (withBody) {
      bytes.put(body);
    }
    return bytes.flip();
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 431 -> "Request Header Fields Too Large";
      case 503 -> "Service Unavailable";
      case 505 -> "HTTP Version Not Supported";
      default -> "Internal Server Error";
    };
  }
}
