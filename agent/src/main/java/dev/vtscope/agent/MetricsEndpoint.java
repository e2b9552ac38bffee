package dev.vtscope.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.report.OpenMetricsReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Serves the metrics at {@code /metrics} in the OpenMetrics format, with the JDK's own HTTP server
 * on one daemon thread: a scrape renders the counters kept, nothing is analysed while serving.
 */
final class MetricsEndpoint implements AutoCloseable {

  private final HttpServer server;

  private MetricsEndpoint(HttpServer server) {
    this.server = server;
  }

  /**
   * Listens on {@code host:port}.
   *
   * @throws IOException when the address cannot be bound (in use, not this machine's)
   */
  static MetricsEndpoint start(String host, int port, Supplier<PinningMetrics> metrics)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
    OpenMetricsReport format = new OpenMetricsReport(Integer.MAX_VALUE);
    server.createContext(
        "/metrics",
        exchange -> {
          try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())
                && !"HEAD".equals(exchange.getRequestMethod())) {
              exchange.sendResponseHeaders(405, -1);
              return;
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
            PrintWriter out =
                new PrintWriter(new OutputStreamWriter(body, StandardCharsets.UTF_8), false);
            format.render(metrics.get(), out);
            respond(exchange, body.toByteArray());
          }
        });
    server.setExecutor(
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "vtscope-agent-http");
              t.setDaemon(true);
              return t;
            }));
    server.start();
    return new MetricsEndpoint(server);
  }

  private static void respond(HttpExchange exchange, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", OpenMetricsReport.CONTENT_TYPE);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(200, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** The address it listens on, with the port taken when 0 was asked for. */
  InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
