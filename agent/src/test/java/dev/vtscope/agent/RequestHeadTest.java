package dev.vtscope.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How the endpoint reads a request head: where it ends, what it asks, whether more may follow. */
class RequestHeadTest {

  @Test
  void aHeadEndsAtItsFirstEmptyLineWithCrLfOrABareLf() {
    assertThat(end("GET / HTTP/1.1\r\nHost: x\r\n\r\nnext")).isEqualTo(27);
    assertThat(end("GET / HTTP/1.1\nHost: x\n\nnext")).isEqualTo(24);
    assertThat(end("GET / HTTP/1.1\r\nHost: x\r\n")).isEqualTo(-1);
    assertThat(end("G")).isEqualTo(-1);
    assertThat(end("\r\n")).as("an empty line before the request line is skipped").isEqualTo(-1);
    assertThat(end("\r\nGET / HTTP/1.1\r\n\r\n")).isEqualTo(20);
    assertThat(end("\r\n".repeat(5))).as("too many: a head, a bad one").isEqualTo(10);
  }

  @Test
  void http11StaysOpenUnlessToldOrSentABody() throws Exception {
    assertThat(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"))
        .isEqualTo(new RequestHead("GET", "/metrics", true));
    assertThat(parse("GET /metrics HTTP/1.0\r\n\r\n").keepAlive()).isFalse();
    assertThat(parse("GET /metrics HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n").keepAlive())
        .isFalse();
    assertThat(parse("GET /metrics HTTP/1.1\r\nConnection: closed\r\n\r\n").keepAlive()).isTrue();
    assertThat(parse("POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\n").keepAlive()).isFalse();
    assertThat(parse("POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n").keepAlive()).isTrue();
    assertThat(parse("POST /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").keepAlive())
        .isFalse();
  }

  @Test
  void theTargetsPathIsWithoutQueryAndAuthority() throws Exception {
    assertThat(parse("GET /metrics?a=/b HTTP/1.1\r\n\r\n").path()).isEqualTo("/metrics");
    assertThat(parse("GET http://h:1/metrics?x HTTP/1.1\r\n\r\n").path()).isEqualTo("/metrics");
    assertThat(parse("GET HTTPS://h HTTP/1.1\r\n\r\n").path()).isEqualTo("/");
    assertThat(parse("GET /metrics%00 HTTP/1.1\r\n\r\n").path()).isEqualTo("/metrics%00");
  }

  @Test
  void whatIsNotARequestIsRejectedWithItsStatus() {
    assertRejected("GET /metrics\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/1.1 x\r\n\r\n", 400);
    assertRejected("G@T /metrics HTTP/1.1\r\n\r\n", 400);
    assertRejected("GET /m\u00e9trics HTTP/1.1\r\n\r\n", 400);
    assertRejected("GET * HTTP/1.1\r\n\r\n", 400);
    assertRejected("CONNECT h:443 HTTP/1.1\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/1.1\r\nHost : x\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/1.1\r\nno colon\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/1.1\r\nHost: a\u0000b\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/1.1\r\nHost: a\rb\r\n\r\n", 400);
    assertRejected("GET /metrics HTTP/2.0\r\n\r\n", 505);
    assertRejected("\r\n".repeat(5), 400);
    assertRejected("\r\n".repeat(5) + "GET /metrics HTTP/1.1\r\n\r\n", 400);
  }

  @Test
  void emptyLinesBeforeTheRequestLineAreSkippedAFewOfThem() throws Exception {
    assertThat(parse("\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").path()).isEqualTo("/metrics");
    assertThat(parse("\n\r\n\r\n\nGET /metrics HTTP/1.1\r\n\r\n").method()).isEqualTo("GET");
  }

  private static int end(String head) {
    byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
    return RequestHead.end(bytes, bytes.length);
  }

  private static RequestHead parse(String head) throws RequestHead.Rejected {
    byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
    return RequestHead.parse(bytes, RequestHead.end(bytes, bytes.length));
  }

  private static void assertRejected(String head, int status) {
    assertThatThrownBy(() -> parse(head))
        .as(head)
        .isInstanceOfSatisfying(
            RequestHead.Rejected.class, r -> assertThat(r.status()).isEqualTo(status));
  }
}
