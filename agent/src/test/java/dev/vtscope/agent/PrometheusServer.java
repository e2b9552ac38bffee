package dev.vtscope.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Eventually;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Prometheus server (Debian's {@code prometheus} package, which {@code ./run-tests} installs
 * where missing) on the loopback interface, scraping the given targets every second, with its HTTP
 * API for queries. A machine without it fails the test that needs it, saying so.
 */
final class PrometheusServer implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final Path log;
  private final String base;

  private PrometheusServer(Process process, Path log, String base) {
    this.process = process;
    this.log = log;
    this.base = base;
  }

  /** The prometheus executable on PATH. */
  static Path executable() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "prometheus");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError(
        "prometheus is not installed, and this test needs a real Prometheus server: run"
            + " ./run-tests (it installs Debian's prometheus package) or apt-get install"
            + " prometheus");
  }

  /**
   * Starts Prometheus scraping {@code targets} ({@code host:port}, path {@code /metrics}) every
   * second, with its data in {@code dir}, and waits until it is ready.
   */
  static PrometheusServer start(Path dir, List<String> targets) throws Exception {
    Path executable = executable();
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        "global:\n"
            + "  scrape_interval: 1s\n"
            + "  scrape_timeout: 1s\n"
            + "scrape_configs:\n"
            + "  - job_name: vtscope\n"
            + "    static_configs:\n"
            + "      - targets: ["
            + targets.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "))
            + "]\n");
    Path log = dir.resolve("prometheus.log");
    Process process =
        new ProcessBuilder(
                executable.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    PrometheusServer server = new PrometheusServer(process, log, "http://127.0.0.1:" + port);
    try {
      Eventually.holds(
          "Prometheus is ready",
          () -> {
            if (!process.isAlive()) {
              throw new AssertionError("Prometheus exited");
            }
            return server.ready();
          });
    } catch (AssertionError e) {
      String output = server.log();
      server.close();
      throw new AssertionError("Prometheus did not start (" + e.getMessage() + "):\n" + output, e);
    }
    return server;
  }

  private boolean ready() {
    try {
      return get("/-/ready").statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The result of an instant query: {@code data.result} of {@code /api/v1/query}. */
  JsonNode query(String promql) throws IOException, InterruptedException {
    HttpResponse<String> response =
        get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    JsonNode body = JSON.readTree(response.body());
    if (!"success".equals(body.path("status").asText())) {
      throw new AssertionError("query " + promql + " failed: " + response.body());
    }
    return body.path("data").path("result");
  }

  /** The scrape targets as Prometheus sees them: {@code data.activeTargets}. */
  JsonNode targets() throws IOException, InterruptedException {
    return JSON.readTree(get("/api/v1/targets").body()).path("data").path("activeTargets");
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** What Prometheus logged. */
  String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
