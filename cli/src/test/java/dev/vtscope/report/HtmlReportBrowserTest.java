package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.TestRecordings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The HTML report in a real browser: headless Chromium (Debian's package; ./run-tests installs it),
 * driven through its DevTools protocol over the JDK's own WebSocket client. It loads the report of
 * a sample offline, finds the timeline and the flame graph drawn, clicks a site and reads its
 * stack, and keeps screenshots in target/html-report/.
 */
@Tag("runtime-independent")
class HtmlReportBrowserTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static Process browser;
  private static Path profile;
  private static Devtools page;

  /** One DevTools session: commands by id, answers matched to them. */
  static final class Devtools implements WebSocket.Listener {
    private final Map<Integer, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;

    /** The page's uncaught script errors since it was last opened. */
    final java.util.List<JsonNode> exceptions = new java.util.concurrent.CopyOnWriteArrayList<>();

    JsonNode send(String method, ObjectNode params) throws Exception {
      int id = ids.incrementAndGet();
      CompletableFuture<JsonNode> answer = new CompletableFuture<>();
      waiting.put(id, answer);
      ObjectNode command = JSON.createObjectNode().put("id", id).put("method", method);
      command.set("params", params == null ? JSON.createObjectNode() : params);
      socket.sendText(JSON.writeValueAsString(command), true).get(60, TimeUnit.SECONDS);
      JsonNode result = answer.get(30, TimeUnit.SECONDS);
      assertThat(result.has("error")).as(method + ": " + result).isFalse();
      return result.get("result");
    }

    /** Evaluates {@code expression} in the page and returns its value. */
    JsonNode eval(String expression) throws Exception {
      JsonNode r =
          send(
              "Runtime.evaluate",
              JSON.createObjectNode().put("expression", expression).put("returnByValue", true));
      assertThat(r.has("exceptionDetails")).as(expression + ": " + r).isFalse();
      return r.get("result").get("value");
    }

    void screenshot(Path file) throws Exception {
      JsonNode shot = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
      Files.createDirectories(file.getParent());
      Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
    }

    @Override
    public void onOpen(WebSocket webSocket) {
      webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        try {
          JsonNode message = JSON.readTree(partial.toString());
          if (message.has("id")) {
            CompletableFuture<JsonNode> answer = waiting.remove(message.get("id").asInt());
            if (answer != null) {
              answer.complete(message);
            }
          } else if ("Runtime.exceptionThrown".equals(message.path("method").asText())) {
            exceptions.add(message.get("params"));
          }
        } catch (Exception e) {
          // an event we do not read
        }
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }
  }

  @BeforeAll
  static void startChromium() throws Exception {
    String chromium = System.getenv().getOrDefault("VTSCOPE_CHROMIUM", "chromium");
    profile = Files.createTempDirectory("vtscope-chromium");
    browser =
        new ProcessBuilder(
                chromium,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--hide-scrollbars",
                "--window-size=1300,1800",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(profile.resolve("chromium.log").toFile())
            .start();
    Path portFile = profile.resolve("DevToolsActivePort");
    Eventually.holds(
        "chromium's DevTools port",
        () -> {
          assertThat(browser.isAlive()).as("chromium started (./run-tests installs it)").isTrue();
          return Files.exists(portFile) && !Files.readAllLines(portFile).isEmpty();
        });
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
    HttpClient http = HttpClient.newHttpClient();
    JsonNode targets =
        JSON.readTree(
            http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body());
    String url = null;
    for (JsonNode target : targets) {
      if ("page".equals(target.get("type").asText())) {
        url = target.get("webSocketDebuggerUrl").asText();
      }
    }
    assertThat(url).as("a page to drive").isNotNull();
    page = new Devtools();
    page.socket =
        http.newWebSocketBuilder()
            .connectTimeout(Duration.ofSeconds(60))
            .buildAsync(URI.create(url), page)
            .get(60, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stopChromium() {
    if (browser != null) {
      browser.destroyForcibly();
    }
  }

  private static void open(Path report) throws Exception {
    page.send("Page.enable", null);
    page.send("Runtime.enable", null);
    page.exceptions.clear();
    page.send("Page.navigate", JSON.createObjectNode().put("url", report.toUri().toString()));
    Eventually.holds(
        "the report's script ran",
        () ->
            "true"
                .equals(
                    page.eval("document.body && document.body.getAttribute('data-ready')")
                        .asText()));
  }

  @Test
  void theReportDrawsItsChartsAndOpensASiteWhenClicked() throws Exception {
    Path out = TestRecordings.repoRoot().resolve("cli/target/html-report");
    Files.createDirectories(out);
    Path report = out.resolve("pinning-synchronized.html");
    Cli.Result r =
        Cli.run(
            "analyze",
            "--format",
            "html",
            "-o",
            report.toString(),
            TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    String html = Files.readString(report);
    // self-contained: nothing to fetch when it is opened
    assertThat(html)
        .doesNotContain("src=\"http")
        .doesNotContain("href=\"http")
        .doesNotContain("<link");

    open(report);
    assertThat(page.eval("document.querySelectorAll('#timeline svg path.held').length").asInt())
        .isEqualTo(1);
    assertThat(
            page.eval("document.querySelectorAll('#timeline svg rect.saturated').length").asInt())
        .as("the periods with every carrier held are marked")
        .isPositive();
    assertThat(page.eval("document.querySelectorAll('#flame svg g.frame').length").asInt())
        .isGreaterThan(5);
    assertThat(
            page.eval(
                    "[...document.querySelectorAll('#flame svg g.frame')].some(g =>"
                        + " g.querySelector('rect').getAttribute('stroke') === '#1d2330'"
                        + " && g.getAttribute('data-frame').endsWith('SharedLockPinning.withMonitor'))")
                .asBoolean())
        .as("the holder frame is marked in the flame graph")
        .isTrue();
    assertThat(page.eval("document.querySelectorAll('#findings .finding.high').length").asInt())
        .isPositive();
    page.screenshot(out.resolve("report.png"));

    String detail =
        page.eval(
                "document.querySelector('#sites tbody tr').click();"
                    + " document.getElementById('site-detail').innerText")
            .asText();
    assertThat(detail)
        .contains("dev.vtscope.workloads.SharedLockPinning.withMonitor")
        .contains("holds the carrier")
        .contains("Stack (innermost first)");
    assertThat(
            page.eval("document.querySelectorAll('#timeline svg rect.site-range').length").asInt())
        .as("the site's time is marked on the timeline")
        .isEqualTo(1);
    page.screenshot(out.resolve("report-site.png"));

    // search highlights matching frames; sorting by events puts the most first
    page.eval(
        "const s = document.getElementById('search'); s.value = 'withMonitor';"
            + " s.dispatchEvent(new Event('input'))");
    assertThat(page.eval("document.getElementById('flame-status').textContent").asText())
        .matches("[1-9]\\d* frames match");
  }

  @Test
  void aPageOfSeveralRecordingsTablesThemAndDrawsEachOnesTimeline() throws Exception {
    Path out = TestRecordings.repoRoot().resolve("cli/target/html-report");
    Files.createDirectories(out);
    Path report = out.resolve("several.html");
    Path samples = TestRecordings.repoRoot().resolve("samples");
    Cli.Result r =
        Cli.run(
            "analyze",
            "--format",
            "html",
            "-o",
            report.toString(),
            samples.resolve("jdk21/sleep-fanout.jfr").toString(),
            samples.resolve("jdk21/pinning-synchronized.jfr").toString(),
            samples.resolve("jdk21/submit-failed.jfr").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    open(report);
    assertThat(page.eval("document.querySelectorAll('#recordings tbody tr').length").asInt())
        .isEqualTo(3);
    // the worst first: the starved recording, then the one whose tasks were rejected
    assertThat(page.eval("document.querySelector('#recordings tbody tr td').textContent").asText())
        .endsWith("pinning-synchronized.jfr");
    assertThat(page.eval("document.querySelectorAll('#timeline-of option').length").asInt())
        .isEqualTo(3);
    assertThat(
            page.eval("document.querySelectorAll('#timeline svg rect.saturated').length").asInt())
        .as("the starved recording's timeline is drawn first")
        .isPositive();
    // another recording's timeline, with its rejected tasks
    page.eval(
        "(() => { const s = document.getElementById('timeline-of');"
            + " s.value = [...s.options].findIndex(o => o.text.includes('submit-failed'));"
            + " s.dispatchEvent(new Event('change')); return true; })()");
    assertThat(page.eval("document.querySelectorAll('#timeline svg line.rejected').length").asInt())
        .isEqualTo(50);
    assertThat(
            page.eval("document.querySelectorAll('#timeline svg rect.saturated').length").asInt())
        .isZero();
    assertThat(page.eval("document.querySelectorAll('#findings .spread').length").asInt())
        .isPositive();
  }

  /**
   * Every golden case of the dump reports as a page: drawn without a script error, groups listed.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("dev.vtscope.report.DumpReportTest#cases")
  void eachDumpReportDrawsItsWaitGroupsAndOpensOne(String spec) throws Exception {
    dev.vtscope.analysis.DumpAnalysis a = DumpReportTest.analyze(spec);
    dev.vtscope.advice.Advice advice = dev.vtscope.advice.DumpAdvisor.advise(a);
    Path out = TestRecordings.repoRoot().resolve("cli/target/html-report/dumps");
    Files.createDirectories(out);
    Path report = out.resolve(spec.split(",")[0].replaceAll("[^A-Za-z0-9.-]", "_") + ".html");
    try (java.io.PrintWriter w = new java.io.PrintWriter(Files.newBufferedWriter(report))) {
      new HtmlReport().render(new Report.DumpsAnalyzed(a, advice), w);
    }
    open(report);
    int groups = a.isSeries() ? a.series().groups().size() : a.last().groups().size();
    assertThat(page.eval("document.querySelectorAll('#waits tbody tr[data-group]').length").asInt())
        .as(spec)
        .isEqualTo(Math.min(groups, HtmlReport.MAX_GROUPS));
    assertThat(page.eval("document.querySelectorAll('#findings .finding').length").asInt())
        .isEqualTo(advice.findings().size());
    assertThat(page.eval("document.getElementById('sites') === null").asBoolean())
        .as("a dump's page has no recording's sections")
        .isTrue();
    assertThat(page.eval("document.getElementById('title').textContent").asText())
        .startsWith("vtscope: what the threads wait for");
    if (groups > 0) {
      String detail =
          page.eval(
                  "document.querySelector('#waits tbody tr[data-group]').click();"
                      + " document.querySelector('#waits tr.group-detail').innerText")
              .asText();
      assertThat(detail).contains(a.isSeries() ? "thread" : "#");
      if (a.isSeries()) {
        assertThat(
                page.eval("document.querySelector('#waits tbody tr[data-group] td').textContent")
                    .asText())
            .contains(" → ");
      }
    }
    assertThat(page.exceptions).as(spec + ": script errors").isEmpty();
  }

  @Test
  void aDumpsHostileThreadNamesShowEscapedAndItsFindingIsListed() throws Exception {
    Path out = TestRecordings.repoRoot().resolve("cli/target/html-report");
    Files.createDirectories(out);
    Path report = out.resolve("escape-name.html");
    Path dumps = TestRecordings.repoRoot().resolve("cli/src/test/resources/threaddumps/jdk25");
    Cli.Result r =
        Cli.run(
            "analyze",
            "--format",
            "html",
            "-o",
            report.toString(),
            dumps.resolve("escape-name/dump-to-file.txt").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    open(report);
    String text = page.eval("document.body.innerText").asText();
    assertThat(text).doesNotContain("\u001b").contains("vt-\\u001B[31mred").contains("pt-\\u001Bx");
    page.screenshot(out.resolve("escape-name.png"));

    Path pinned = out.resolve("class-init-carriers.html");
    r =
        Cli.run(
            "analyze",
            "--format",
            "html",
            "-o",
            pinned.toString(),
            dumps.resolve("class-init-carriers/dump-to-file.json").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    open(pinned);
    assertThat(
            page.eval("document.querySelector('#findings .finding .title').textContent").asText())
        .contains("pinned now");
    assertThat(
            page.eval(
                    "document.querySelector('#waits tbody tr[data-group] td.num + td').textContent")
                .asText())
        .as("the carrier held is the first group's")
        .isEqualTo("1");
    String stack =
        page.eval(
                "document.querySelector('#waits tbody tr[data-group]').click();"
                    + " document.querySelector('#waits tr.group-detail .stack').innerText")
            .asText();
    assertThat(stack).contains("at ").contains("<- the application's frame");
    page.screenshot(out.resolve("class-init-carriers.png"));
    assertThat(page.exceptions).isEmpty();
  }

  @Test
  void textOfTheRecordingCannotBreakOutOfThePage() throws Exception {
    ObjectNode data = JSON.createObjectNode().put("title", "</script><img src=x onerror=alert(1)>");
    String embedded = JsonText.forScript(data);
    assertThat(embedded).doesNotContain("</script>").doesNotContain("<img");
    assertThat(JSON.readTree(embedded).get("title").asText())
        .isEqualTo("</script><img src=x onerror=alert(1)>");
  }
}
