package dev.vtscope.agent;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.vtscope.advice.Severity;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.metrics.SiteSeries;
import dev.vtscope.report.OpenMetricsReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The agent's HTTP endpoint as a client on the network sees it, byte by byte over sockets: slow and
 * half-open connections hold up no scrape, every request line gets a well-formed status, and only
 * {@code GET} and {@code HEAD} of {@code /metrics} are served. Nothing here measures time: where a
 * limit of time is the subject, the test waits for its effect with a generous guard.
 */
class MetricsEndpointTest {

  private static final PinningMetrics METRICS =
      new PinningMetrics(
          List.of(
              new SiteSeries(
                  new SiteSeries.Holder("com.acme.Cache", "load", "synchronized_block", ""),
                  12,
                  3_000_000),
              new SiteSeries(
                  new SiteSeries.Holder("org.h2.Engine", "open", "native_method", "h2:2.2"),
                  3,
                  9_000_000)),
          new SiteSeries(SiteSeries.Holder.OTHER, 0, 0),
          0,
          2,
          4,
          Map.of(Severity.INFO, 0, Severity.LOW, 1, Severity.MEDIUM, 0, Severity.HIGH, 1));

  /** What a scrape's body must be: what the renderer writes, which Prometheus reads. */
  private static final String EXPECTED = rendered(METRICS);

  /** The default limits with a time that no run reaches: the tests of concurrency wait for none. */
  private static final MetricsEndpoint.Limits PATIENT =
      new MetricsEndpoint.Limits(
          Duration.ofMinutes(10),
          MetricsEndpoint.Limits.DEFAULT.headBytes(),
          MetricsEndpoint.Limits.DEFAULT.connections());

  /** The guard against a hang: far longer than a loaded machine ever needs. */
  private static final int GUARD_MILLIS = 60_000;

  @Test
  void slowAndHalfOpenConnectionsHoldUpNoScrape() throws Exception {
    try (MetricsEndpoint endpoint = serve(PATIENT);
        Socket partOfAMethod = open(endpoint, "G");
        Socket noEmptyLine = open(endpoint, "GET /metrics HTTP/1.1\r\nHost: x\r\n");
        Socket silent = open(endpoint, "");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      HttpRequest scrape =
          HttpRequest.newBuilder(URI.create(endpoint.url()))
              .timeout(Duration.ofMillis(GUARD_MILLIS))
              .build();
      List<CompletableFuture<HttpResponse<String>>> scrapes = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        scrapes.add(client.sendAsync(scrape, HttpResponse.BodyHandlers.ofString()));
      }
      for (CompletableFuture<HttpResponse<String>> answered : scrapes) {
        HttpResponse<String> response = answered.get(2 * GUARD_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
            .hasValue(OpenMetricsReport.CONTENT_TYPE);
        assertThat(response.body()).isEqualTo(EXPECTED);
      }
      // They were held open all along: answered nothing, closed by no one.
      for (Socket slow : List.of(partOfAMethod, noEmptyLine, silent)) {
        slow.setSoTimeout(200);
        try {
          int read = slow.getInputStream().read();
          fail("a slow connection was answered or closed (%d)", read);
        } catch (SocketTimeoutException expected) {
          // still waiting for the rest of its request
        }
      }
    }
  }

  @Test
  void aConnectionIsClosedWhenItsRequestHeadTakesTooLong() throws Exception {
    MetricsEndpoint.Limits quick =
        new MetricsEndpoint.Limits(Duration.ofSeconds(2), PATIENT.headBytes(), 16);
    try (MetricsEndpoint endpoint = serve(quick);
        Socket partOfAMethod = open(endpoint, "G");
        Socket noEmptyLine = open(endpoint, "GET /metrics HTTP/1.1\r\nHost: x\r\n");
        Socket silent = open(endpoint, "");
        Socket keptAlive = open(endpoint, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")) {
      assertThat(readToEnd(partOfAMethod))
          .startsWith("HTTP/1.1 408 Request Timeout\r\n")
          .contains("\r\nConnection: close\r\n");
      assertThat(readToEnd(noEmptyLine)).startsWith("HTTP/1.1 408 Request Timeout\r\n");
      assertThat(readToEnd(silent)).as("an idle connection is closed silently").isEmpty();

      Answer first = Answer.read(keptAlive.getInputStream(), false);
      assertThat(first.status()).isEqualTo(200);
      assertThat(first.headers()).doesNotContainKey("connection");
      assertThat(readToEnd(keptAlive)).as("then closed once idle").isEmpty();
    }
  }

  @Test
  void aConnectionBeyondTheLimitIsAnswered503() throws Exception {
    MetricsEndpoint.Limits two = new MetricsEndpoint.Limits(PATIENT.timeout(), 8192, 2);
    try (MetricsEndpoint endpoint = serve(two);
        Socket first = open(endpoint, "");
        Socket second = open(endpoint, "")) {
      try (Socket third = open(endpoint, "")) {
        assertThat(readToEnd(third))
            .startsWith("HTTP/1.1 503 Service Unavailable\r\n")
            .contains("\r\nConnection: close\r\n")
            .endsWith("503 Service Unavailable: more than 2 connections open\n");
      }
      first.close();
      // Served again once the endpoint has seen a connection close.
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GUARD_MILLIS);
      int status = 0;
      while (status != 200 && System.nanoTime() < deadline) {
        try (Socket again = open(endpoint, "GET /metrics HTTP/1.0\r\n\r\n")) {
          status = Answer.read(again.getInputStream(), true).status();
        } catch (IOException refused) {
          // refused once more, its request unread: the closing could reset the connection
        }
      }
      assertThat(status).isEqualTo(200);
    }
  }

  @Test
  void onlyGetAndHeadOfMetricsAreServed() throws Exception {
    Map<String, Integer> expected = new LinkedHashMap<>();
    expected.put("GET /metrics HTTP/1.1", 200);
    // RFC 9112: an empty line before the request line is ignored, a few of them are
    expected.put("\r\nGET /metrics HTTP/1.1", 200);
    expected.put("\n\r\nGET /metrics HTTP/1.1", 200);
    expected.put("\r\n".repeat(RequestHead.EMPTY_LINES_BEFORE + 1) + "GET /metrics HTTP/1.1", 400);
    expected.put("GET /metrics?name[]=a&x HTTP/1.1", 200);
    expected.put("GET http://127.0.0.1:1/metrics HTTP/1.1", 200);
    expected.put("GET HTTP://Some.Host/metrics?x=1 HTTP/1.1", 200);
    expected.put("GET /metrics/x HTTP/1.1", 404);
    expected.put("GET /metrics%00 HTTP/1.1", 404);
    expected.put("GET /metrics/ HTTP/1.1", 404);
    expected.put("GET /METRICS HTTP/1.1", 404);
    expected.put("GET /%6Detrics HTTP/1.1", 404);
    expected.put("GET /metrics#x HTTP/1.1", 404);
    expected.put("GET / HTTP/1.1", 404);
    expected.put("HEAD /other HTTP/1.1", 404);
    expected.put("GET http://host HTTP/1.1", 404);
    expected.put("POST /metrics HTTP/1.1", 405);
    expected.put("DELETE /metrics HTTP/1.1", 405);
    expected.put("get /metrics HTTP/1.1", 405);
    expected.put("GET /metrics", 400);
    expected.put("GET  /metrics HTTP/1.1", 400);
    expected.put("GET /metrics HTTP/1.1 ", 400);
    expected.put("GET\t/metrics HTTP/1.1", 400);
    expected.put("GET /met rics HTTP/1.1", 400);
    expected.put("GET * HTTP/1.1", 400);
    expected.put("CONNECT 127.0.0.1:1 HTTP/1.1", 400);
    expected.put("GET /metrics http/1.1", 400);
    expected.put("GET /metrics HTTP/2.0", 505);
    expected.put("GET /metrics HTTP/0.9", 505);
    expected.put("GET /" + "a".repeat(10_000) + " HTTP/1.1", 431);

    try (MetricsEndpoint endpoint = serve(MetricsEndpoint.Limits.DEFAULT)) {
      Map<String, Integer> actual = new LinkedHashMap<>();
      Map<String, Integer> expectedShort = new LinkedHashMap<>();
      for (Map.Entry<String, Integer> e : expected.entrySet()) {
        String line = e.getKey();
        try (Socket s = open(endpoint, line + "\r\nHost: x\r\n\r\n")) {
          Answer answer = Answer.read(s.getInputStream(), line.startsWith("HEAD "));
          String shown = line.length() > 60 ? line.substring(0, 60) + "…" : line;
          actual.put(shown, answer.status());
          expectedShort.put(shown, e.getValue());
          if (answer.status() == 405) {
            assertThat(answer.headers()).containsEntry("allow", "GET, HEAD");
          }
          if (answer.status() == 200) {
            assertThat(answer.body()).isEqualTo(EXPECTED);
          }
          if (answer.status() >= 400 && !line.startsWith("HEAD ")) {
            assertThat(answer.body()).startsWith(answer.status() + " ");
          }
        }
      }
      assertThat(actual).containsExactlyEntriesOf(expectedShort);
    }
  }

  @Test
  void headSendsTheHeadersOfGetAndNoBody() throws Exception {
    try (MetricsEndpoint endpoint = serve(MetricsEndpoint.Limits.DEFAULT);
        Socket s =
            open(
                endpoint,
                "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) {
      InputStream in = s.getInputStream();
      Answer head = Answer.read(in, true);
      assertThat(head.status()).isEqualTo(200);
      assertThat(head.headers())
          .containsEntry("content-type", OpenMetricsReport.CONTENT_TYPE)
          .containsEntry(
              "content-length", String.valueOf(EXPECTED.getBytes(StandardCharsets.UTF_8).length))
          .containsKey("date");
      // Right after HEAD's headers comes the answer to GET: HEAD sent no body.
      Answer get = Answer.read(in, false);
      assertThat(get.status()).isEqualTo(200);
      assertThat(get.headers()).containsEntry("connection", "close");
      assertThat(get.body()).isEqualTo(EXPECTED);
      assertThat(in.read()).as("closed as asked").isEqualTo(-1);
    }
  }

  @Test
  void http10IsAnsweredAndClosed() throws Exception {
    try (MetricsEndpoint endpoint = serve(MetricsEndpoint.Limits.DEFAULT);
        Socket s = open(endpoint, "GET /metrics HTTP/1.0\r\n\r\n")) {
      String all = readToEnd(s);
      assertThat(all).startsWith("HTTP/1.1 200 OK\r\n").contains("\r\nConnection: close\r\n");
      assertThat(new String(all.getBytes(ISO_8859_1), StandardCharsets.UTF_8))
          .endsWith("\r\n\r\n" + EXPECTED);
    }
  }

  /**
   * Request lines made of random bytes, huge lines, odd methods, encoded paths, missing and odd
   * versions and absolute URIs each get a well-formed status line, and the endpoint serves as
   * before afterwards. The seed is fixed so that a failure can be run again.
   */
  @Test
  void anyRequestLineGetsAWellFormedStatus() throws Exception {
    Random random = new Random(20_261_127L);
    List<String> methods =
        List.of(
            "GET",
            "HEAD",
            "POST",
            "PUT",
            "OPTIONS",
            "TRACE",
            "CONNECT",
            "PATCH",
            "get",
            "G",
            "GETT",
            "M-SEARCH",
            "\u00c9T\u00c9",
            "G\u0000T",
            "");
    List<String> targets =
        List.of(
            "/metrics",
            "/metrics/x",
            "/metrics%00",
            "%2Fmetrics",
            "/%6detrics",
            "/metrics?x=%00&y",
            "/../metrics",
            "//metrics",
            "/m\u00c3\u00a9trics",
            "/metrics\u0000",
            "http://h/metrics",
            "HTTP://H:9/metrics?x",
            "https://h/metrics",
            "http://h",
            "http:/metrics",
            "*",
            "h:80",
            "/metrics#x",
            "/" + "x".repeat(20_000),
            "");
    List<String> versions =
        List.of(
            "HTTP/1.1",
            "HTTP/1.0",
            "HTTP/2",
            "HTTP/2.0",
            "HTTP/0.9",
            "http/1.1",
            "HTTP/1.12",
            "HTTP/1.1 extra",
            "");
    List<String> separators = List.of(" ", "  ", "\t", "");
    Set<Integer> wellFormed = Set.of(200, 400, 404, 405, 431, 505);

    try (MetricsEndpoint endpoint = serve(MetricsEndpoint.Limits.DEFAULT)) {
      for (int i = 0; i < 400; i++) {
        String line =
            switch (i % 4) {
              case 0 -> randomBytes(random, random.nextInt(i < 8 ? 100_000 : 300));
              case 1 -> randomPrintable(random, random.nextInt(200));
              case 2 ->
                  pick(random, methods)
                      + pick(random, separators)
                      + pick(random, targets)
                      + pick(random, separators)
                      + pick(random, versions);
              default ->
                  pick(random, methods)
                      + " "
                      + pick(random, targets)
                      + " "
                      + pick(random, versions);
            };
        try (Socket s = open(endpoint, line + "\r\nHost: fuzz\r\n\r\n")) {
          String status = statusLine(s.getInputStream());
          String shown = line.length() > 80 ? line.substring(0, 80) + "…" : line;
          assertThat(status)
              .as("the answer to %s", shown.replace("\r", "\\r").replace("\n", "\\n"))
              .matches("HTTP/1\\.1 \\d{3} [A-Za-z ]+");
          assertThat(Integer.parseInt(status.substring(9, 12))).isIn(wellFormed);
        }
      }
      try (Socket s = open(endpoint, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")) {
        Answer answer = Answer.read(s.getInputStream(), false);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(EXPECTED);
      }
    }
  }

  private static String pick(Random random, List<String> from) {
    return from.get(random.nextInt(from.size()));
  }

  private static String randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return new String(bytes, ISO_8859_1);
  }

  private static String randomPrintable(Random random, int length) {
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append((char) (0x20 + random.nextInt(0x5f)));
    }
    return s.toString();
  }

  private static MetricsEndpoint serve(MetricsEndpoint.Limits limits) throws Exception {
    return MetricsEndpoint.listen("127.0.0.1", 0, limits).serve(() -> METRICS);
  }

  /** A connection to the endpoint that has sent {@code sent}, byte for char. */
  private static Socket open(MetricsEndpoint endpoint, String sent) throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), endpoint.address().getPort());
    s.setSoTimeout(GUARD_MILLIS);
    s.getOutputStream().write(sent.getBytes(ISO_8859_1));
    s.getOutputStream().flush();
    return s;
  }

  /** Everything the endpoint sends until it closes the connection, byte for char. */
  private static String readToEnd(Socket s) throws IOException {
    return new String(s.getInputStream().readAllBytes(), ISO_8859_1);
  }

  private static String statusLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        fail("closed before a status line: %s", line.toString(ISO_8859_1));
      }
      line.write(b);
    }
    String text = line.toString(ISO_8859_1);
    assertThat(text).endsWith("\r");
    return text.substring(0, text.length() - 1);
  }

  private static String rendered(PinningMetrics metrics) {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    new OpenMetricsReport(Integer.MAX_VALUE).render(metrics, out);
    out.flush();
    return text.toString();
  }

  /** One answer read off a connection: status, headers by lower-case name, body as UTF-8. */
  record Answer(int status, Map<String, String> headers, String body) {

    static Answer read(InputStream in, boolean toHead) throws IOException {
      String status = statusLine(in);
      assertThat(status).matches("HTTP/1\\.1 \\d{3} [A-Za-z ]+");
      Map<String, String> headers = new LinkedHashMap<>();
      for (String line = statusLine(in); !line.isEmpty(); line = statusLine(in)) {
        int colon = line.indexOf(':');
        assertThat(colon).as("a header field: %s", line).isPositive();
        headers.put(
            line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
      }
      int length = Integer.parseInt(headers.get("content-length"));
      byte[] body = toHead ? new byte[0] : in.readNBytes(length);
      assertThat(body).hasSize(toHead ? 0 : length);
      return new Answer(
          Integer.parseInt(status.substring(9, 12)),
          headers,
          new String(body, StandardCharsets.UTF_8));
    }
  }
}
