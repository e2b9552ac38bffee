package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The JVM running this test has vtscope's agent: it serves the JVM's pinning as OpenMetrics. */
class ServesMetricsTest {

  @Test
  void servesTheMetrics() throws Exception {
    URI metrics = URI.create("http://127.0.0.1:" + System.getProperty("agent.port") + "/metrics");
    HttpClient client = HttpClient.newHttpClient();
    // the agent starts its server beside main; a loaded machine may take a while
    HttpResponse<String> response = null;
    for (int attempt = 0; response == null && attempt < 600; attempt++) {
      try {
        response = client.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    assertTrue(response != null, "the agent never answered at " + metrics);
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.body().contains("# TYPE vtscope_findings"), response.body());
    assertTrue(response.body().strip().endsWith("# EOF"), response.body());
  }
}
