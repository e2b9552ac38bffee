package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.Workloads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command line the README and docs/ show runs as written: the {@code vtscope} invocations of
 * each {@code bash} block, and each {@code $ ./vtscope} line of a {@code text} block with the
 * output it shows. They run in-process, in a folder where the names the docs use ({@code app.jfr},
 * {@code before.jfr}, {@code reports/}, a JFR repository folder) are sample recordings and reports;
 * a line that needs the shell runs in bash, with {@code vtscope} the test's own build.
 *
 * <p>A line that cannot run here is listed in {@link #RULES} with the reason; one that runs too
 * long (a workload, a running JVM) is at least read by the command line, so that an option or a
 * value renamed since fails. A command line added to the docs runs by default: it fails this test
 * until it works as written, or is listed.
 */
class DocumentedCommandLinesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What is done with a line. */
  enum Kind {
    /** Run in-process, each vtscope invocation of the line. */
    RUN,
    /** Run in bash, as a user would: it needs the shell (a pipe into vtscope, xargs, <(...)). */
    SHELL,
    /**
     * Read by the command line, not run: it runs too long for a test, or needs what a test does not
     * have (another host, your application).
     */
    PARSE
  }

  /**
   * A way of handling the lines that match {@code pattern} (found in the line as written, comments
   * left out), with the exit code the docs give them.
   */
  record Rule(Pattern pattern, Kind kind, int exitCode, String why) {
    static Rule of(String regex, Kind kind, int exitCode, String why) {
      return new Rule(Pattern.compile(regex), kind, exitCode, why);
    }
  }

  /** The lines that do not simply run and exit 0; the first rule that matches a line is its own. */
  private static final List<Rule> RULES =
      List.of(
          Rule.of("^ssh ", Kind.PARSE, 0, "reads from another host"),
          Rule.of(
              "--fromat json$",
              Kind.RUN,
              2,
              "the README's example of a mistyped option: exit 2 and the line shown"),
          Rule.of(
              "^\\./vtscope check ((app|build/vt)\\.jfr|deadlock\\.json)",
              Kind.RUN,
              6,
              "check exits 6 when a finding reaches --fail-on high, as the samples' do"),
          Rule.of(
              "-- (java -jar (build/)?app\\.jar|\\./mvnw)",
              Kind.PARSE,
              0,
              "records your application or build, which app.jar and mvnw stand for"),
          Rule.of(
              "^\\./vtscope record --workload ",
              Kind.PARSE,
              0,
              "runs a workload in a child JVM for seconds; RecordCommandTest runs workloads, and"
                  + " the workload and variant named are checked here"),
          Rule.of(
              "^\\./vtscope record --pid ",
              Kind.PARSE,
              0,
              "records a running JVM for 30 s or more; RecordPidCommandTest records one"),
          Rule.of(
              "^\\./vtscope dump ",
              Kind.PARSE,
              0,
              "dumps a running JVM, whose pid the docs stand for; DumpCommandTest dumps workloads"),
          Rule.of(
              "^\\./vtscope watch ",
              Kind.PARSE,
              0,
              "runs until q, Ctrl-C or its --duration; WatchCommandTest watches a JVM"),
          Rule.of(
              "/var/lib/node_exporter",
              Kind.PARSE,
              0,
              "writes into node_exporter's folder; the same analyze --format openmetrics runs"
                  + " from docs/metrics.md's other lines"),
          Rule.of(
              "<\\(zcat vt\\.jfr\\.gz\\)",
              Kind.SHELL,
              0,
              "process substitution: vtscope reads the pipe /dev/fd/N names"),
          Rule.of("^printf .* \\| \\./vtscope explore ", Kind.SHELL, 0, "commands piped in"),
          Rule.of("\\| xargs ", Kind.SHELL, 0, "one vtscope per recording, run by xargs and sh"));

  /** What the docs' names stand for: a recording of each kind, and reports of analyses. */
  private static final Map<String, String> RECORDINGS =
      Map.of(
          "app.jfr", "jdk21/pinning-synchronized.jfr",
          "a.jfr", "jdk21/pinning-synchronized.jfr",
          "vt.jfr", "jdk21/pinning-synchronized.jfr",
          "before.jfr", "jdk21/pinning-synchronized.jfr",
          "app-17.jfr", "jdk21/pinning-synchronized.jfr",
          "build/vt.jfr", "jdk21/pinning-synchronized.jfr",
          "baseline/vt.jfr", "jdk21/pinning-synchronized.jfr",
          "b.jfr", "jdk21/pinning-reentrant-lock.jfr",
          "after.jfr", "jdk21/pinning-reentrant-lock.jfr",
          "recordings/class-init.jfr", "jdk21/class-init.jfr");

  /** The JFR repository folder the docs name, as a running JVM would have it. */
  private static final String REPOSITORY = "/tmp/2026_11_22_10_00_00_4242";

  /** The options whose value is a file that the command writes. */
  private static final List<String> WRITES = List.of("-o", "--output", "--junit", "--out");

  @TempDir static Path workspace;

  /** A documented command line: where it is, what it says, and what the docs show it print. */
  record DocLine(String file, int line, String text, List<String> shown, List<String> typed) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + text;
    }
  }

  @BeforeAll
  static void workspaceOfTheDocsNames() throws IOException {
    Path samples = TestRecordings.repoRoot().resolve("samples");
    Files.createSymbolicLink(workspace.resolve("samples"), samples);
    for (Map.Entry<String, String> name : RECORDINGS.entrySet()) {
      Path file = workspace.resolve(name.getKey());
      Files.createDirectories(file.getParent());
      Files.copy(samples.resolve(name.getValue()), file);
    }
    Path nested = workspace.resolve("fleet/eu");
    Files.createDirectories(nested);
    Files.copy(samples.resolve("jdk25/class-init.jfr"), nested.resolve("node-1.jfr"));
    Path repository = workspace.resolve(Path.of(REPOSITORY).getFileName().toString());
    Files.createDirectories(repository);
    Files.copy(
        samples.resolve("jdk25/native-pinning.jfr"), repository.resolve("2026_11_22_10_00_00.jfr"));
    try (OutputStream gz =
        new GZIPOutputStream(Files.newOutputStream(workspace.resolve("vt.jfr.gz")))) {
      Files.copy(samples.resolve("jdk21/pinning-synchronized.jfr"), gz);
    }
    Files.createDirectories(workspace.resolve("build/test-results"));
    Files.writeString(workspace.resolve("commands.txt"), "findings\nsites pinned\nsite 1\n");
    // the thread dumps the docs name: one, and a folder of one JVM's
    Path dumps = dev.vtscope.threaddump.Samples.root();
    Files.copy(
        dumps.resolve("jdk25/semaphore-fan-out/dump-to-file.json"),
        workspace.resolve("threads.json"));
    Files.copy(
        dumps.resolve("jdk25/monitor-cycle/dump-to-file.json"), workspace.resolve("deadlock.json"));
    Files.createDirectories(workspace.resolve("dumps"));
    for (int i = 1; i <= 3; i++) {
      Files.copy(
          dumps.resolve("jdk25/semaphore-series/dump-" + i + ".json"),
          workspace.resolve("dumps/dump-" + i + ".json"));
    }
    // the reports a fleet's tasks wrote, and merges of them
    Files.createDirectories(workspace.resolve("reports"));
    report("jdk21/pinning-synchronized.jfr", "reports/app-1.json");
    report("jdk25/pinning-synchronized.jfr", "reports/app-2.json");
    report("jdk21/class-init.jfr", "eu.json");
    report("jdk25/class-init.jfr", "us.json");
    report("jdk21/submit-failed.jfr", "asia.json");
    // an application's jars for --classpath
    Files.createDirectories(workspace.resolve("target/lib"));
    try (var jar =
        new java.util.jar.JarOutputStream(
            Files.newOutputStream(workspace.resolve("target/app.jar")))) {
      jar.putNextEntry(new java.util.zip.ZipEntry("META-INF/MANIFEST.MF"));
      jar.write("Manifest-Version: 1.0\n".getBytes(StandardCharsets.US_ASCII));
    }
    Path bin = Files.createDirectories(workspace.resolve("bin"));
    String launcher =
        "#!/bin/sh\nexec '"
            + TestRecordings.currentJava()
            + "' -XX:TieredStopAtLevel=1 -cp '"
            + System.getProperty("java.class.path")
            + "' dev.vtscope.cli.VtScope \"$@\"\n";
    for (Path script : List.of(bin.resolve("vtscope"), workspace.resolve("vtscope"))) {
      Files.writeString(script, launcher);
      assertThat(script.toFile().setExecutable(true)).isTrue();
    }
  }

  private static void report(String sample, String name) {
    Cli.Result r =
        Cli.run(
            "analyze",
            TestRecordings.repoRoot().resolve("samples").resolve(sample).toString(),
            "--format",
            "json",
            "-o",
            workspace.resolve(name).toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  @TestFactory
  Stream<DynamicTest> everyDocumentedCommandLineWorksAsWritten() throws IOException {
    List<DocLine> lines = documentedLines();
    assertThat(lines).as("command lines found in the README and docs/").hasSizeGreaterThan(60);
    return lines.stream().map(line -> DynamicTest.dynamicTest(line.toString(), () -> check(line)));
  }

  /** Each rule is of a line the docs still have: a rule left over would excuse a new line. */
  @Test
  void everyRuleIsOfADocumentedLine() throws IOException {
    List<DocLine> lines = documentedLines();
    for (Rule rule : RULES) {
      assertThat(lines)
          .as("a documented line for the rule " + rule.pattern())
          .anyMatch(line -> ruleOf(line) == rule);
    }
  }

  private static Rule ruleOf(DocLine line) {
    return RULES.stream()
        .filter(r -> r.pattern().matcher(line.text()).find())
        .findFirst()
        .orElse(RUNS);
  }

  /** The rule of every other line: it runs in-process and exits 0. */
  private static final Rule RUNS = Rule.of("", Kind.RUN, 0, "runs as written");

  private static void check(DocLine line) throws Exception {
    Rule rule = ruleOf(line);
    switch (rule.kind()) {
      case PARSE -> {
        for (List<String> args : invocations(line.text())) {
          parse(args);
        }
      }
      case SHELL -> {
        Cli.Result r = bash(line.text());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(rule.exitCode());
        assertShown(line, r);
      }
      case RUN -> {
        List<List<String>> invocations = invocations(line.text());
        assertThat(invocations).as("the vtscope invocations of " + line).isNotEmpty();
        for (List<String> args : invocations) {
          run(line, args, rule.exitCode());
        }
      }
    }
  }

  /** Runs one invocation in-process and checks its exit code, output and what the docs show. */
  private static void run(DocLine line, List<String> words, int exitCode) throws IOException {
    List<String> args = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    String stdin =
        String.join(
            "\n", line.typed().stream().map(DocumentedCommandLinesTest::typedInWorkspace).toList());
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      if (word.equals("<") && i + 1 < words.size()) {
        stdin = Files.readString(workspace.resolve(words.get(++i)));
        continue;
      }
      List<String> expanded = expand(word);
      if (i > 0 && WRITES.contains(words.get(i - 1)) || words.get(0).equals("redact") && i == 2) {
        Path out = Path.of(expanded.get(0));
        Files.deleteIfExists(out);
        written.add(out);
      }
      args.addAll(expanded);
    }
    InputStream before = System.in;
    System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    Cli.Result r;
    try {
      r = Cli.run(args.toArray(String[]::new));
    } finally {
      System.setIn(before);
    }
    assertThat(r.exitCode()).as(args + "\n" + r.err()).isEqualTo(exitCode);
    for (Path out : written) {
      assertThat(out).as("what " + args + " writes").isNotEmptyFile();
    }
    if (written.isEmpty()) {
      assertThat(r.out() + r.err()).as("what " + args + " prints").isNotBlank();
    }
    if (line.text().matches(".*\\|\\s*jq .*")) {
      JSON.readTree(r.out()); // jq reads it: it is JSON
    }
    assertShown(line, r);
  }

  /**
   * Each line the docs show as printed is printed, on stdout or stderr; a line of "…" alone stands
   * for lines left out.
   */
  private static void assertShown(DocLine line, Cli.Result r) {
    List<String> printed = (r.out() + "\n" + r.err()).lines().map(String::strip).toList();
    for (String shown : line.shown()) {
      if (shown.strip().equals("…")) {
        continue;
      }
      assertThat(printed).as("what " + line + " shows").contains(shown.strip());
    }
  }

  /** Reads an invocation as vtscope would, and checks the workload and variant it names. */
  private static void parse(List<String> words) {
    List<String> args = words.stream().flatMap(w -> expand(w).stream()).toList();
    picocli.CommandLine commandLine =
        VtScope.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), args.get(0));
    commandLine.parseArgs(args.toArray(String[]::new));
    int workload = args.indexOf("--workload");
    if (workload >= 0) {
      Optional<Workload> named =
          Workloads.ALL.stream().filter(w -> w.name().equals(args.get(workload + 1))).findFirst();
      assertThat(named).as("the workload " + args.get(workload + 1)).isPresent();
      int variant = args.indexOf("--variant");
      int end = args.contains("--") ? args.indexOf("--") : args.size();
      if (variant >= 0 && variant < end) {
        assertThat(named.get().variants()).contains(args.get(variant + 1));
      }
    }
  }

  /** Runs the line in bash in the workspace, with ./vtscope and vtscope the test's build. */
  private static Cli.Result bash(String line) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", "set -o pipefail; " + line).directory(workspace.toFile());
    builder
        .environment()
        .merge("PATH", workspace.resolve("bin").toString(), (path, bin) -> bin + ":" + path);
    Process bash =
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    bash.getOutputStream().close();
    var err =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> drain(bash.getErrorStream()));
    String out = drain(bash.getInputStream());
    assertThat(bash.waitFor(120, TimeUnit.SECONDS)).as(line).isTrue();
    return new Cli.Result(bash.exitValue(), out, err.get());
  }

  private static String drain(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A word as the shell would give it, in the workspace: a file name is the workspace's file, a
   * glob its matches, the JFR repository folder the workspace's copy.
   */
  private static List<String> expand(String word) {
    if (word.equals(REPOSITORY)) {
      return List.of(workspace.resolve(Path.of(REPOSITORY).getFileName()).toString());
    }
    if (word.contains("*") && !word.startsWith("-") && !word.contains(":")) {
      PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + word);
      try (Stream<Path> files = Files.walk(workspace, 2)) {
        List<String> matches =
            files
                .filter(p -> glob.matches(workspace.relativize(p)))
                .map(Path::toString)
                .sorted()
                .toList();
        assertThat(matches).as("the files " + word + " matches").isNotEmpty();
        return matches;
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return List.of(inWorkspace(word));
  }

  /**
   * A relative file name as the workspace's, also each entry of a class path ({@code a.jar:lib/*});
   * other words as they are.
   */
  private static String inWorkspace(String word) {
    if (word.contains(":") && !word.startsWith("-")) {
      return String.join(
          ":", Stream.of(word.split(":")).map(DocumentedCommandLinesTest::inWorkspace).toList());
    }
    boolean file =
        !word.startsWith("-")
            && !word.startsWith("/")
            && (word.contains("/")
                || word.matches(".*\\.(jfr|json|jsonl|html|xml|md|prom|txt|jar)"));
    return file ? workspace.resolve(word).toString() : word;
  }

  /** A command typed at explore's prompt, its file names the workspace's. */
  private static String typedInWorkspace(String command) {
    return String.join(
        " ", Stream.of(command.split(" ")).map(DocumentedCommandLinesTest::inWorkspace).toList());
  }

  /** The vtscope invocations of a line, as their words after {@code vtscope}. */
  static List<List<String>> invocations(String line) {
    List<List<String>> found = new ArrayList<>();
    Matcher start = Pattern.compile("(?:^|[\\s|;&('])(?:\\./)?vtscope\\s").matcher(line);
    int from = 0;
    while (start.find(from)) {
      List<String> words = new ArrayList<>();
      int end = words(line, start.end(), words);
      found.add(words);
      from = Math.max(end, start.end());
      if (from >= line.length()) {
        break;
      }
    }
    return found;
  }

  /**
   * Splits the words of one command from {@code at} as the shell would (quotes, no expansion) until
   * a pipe, a list operator, a closing parenthesis or the end; an output redirection and its file
   * are left out, an input redirection kept as {@code <} and the file. Returns where it stopped.
   */
  private static int words(String line, int at, List<String> words) {
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    boolean skipNext = false;
    int i = at;
    for (; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'' || c == '"') {
        int close = line.indexOf(c, i + 1);
        if (close < 0) {
          break; // the quote the command was written in ends it (sh -c 'vtscope ...')
        }
        word.append(line, i + 1, close);
        inWord = true;
        i = close;
        continue;
      }
      boolean ends = c == '|' || c == ';' || c == '&' || c == ')';
      if (Character.isWhitespace(c) || ends || c == '>' || c == '<') {
        if (inWord) {
          if (!skipNext) {
            words.add(word.toString());
          }
          skipNext = false;
          word.setLength(0);
          inWord = false;
        }
        if (ends) {
          break;
        }
        if (c == '>') {
          skipNext = true;
        } else if (c == '<') {
          words.add("<");
        }
        continue;
      }
      word.append(c);
      inWord = true;
    }
    if (inWord && !skipNext) {
      words.add(word.toString());
    }
    return i;
  }

  /** The command lines of the README and docs/, in the order they appear. */
  static List<DocLine> documentedLines() throws IOException {
    Path root = TestRecordings.repoRoot();
    List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<DocLine> lines = new ArrayList<>();
    for (Path file : files) {
      lines.addAll(commandLines(root.relativize(file).toString(), Files.readAllLines(file)));
    }
    return lines;
  }

  private static final Pattern COMMENT = Pattern.compile("\\s+#\\s.*$");

  /** The command lines of one Markdown file. */
  static List<DocLine> commandLines(String file, List<String> text) {
    List<DocLine> lines = new ArrayList<>();
    String fence = null;
    for (int i = 0; i < text.size(); i++) {
      String line = text.get(i);
      if (line.startsWith("```")) {
        fence = fence == null ? line.substring(3).strip() : null;
        continue;
      }
      if ("bash".equals(fence)) {
        int first = i;
        StringBuilder joined = new StringBuilder();
        while (line.endsWith("\\") && i + 1 < text.size()) {
          joined.append(line, 0, line.length() - 1).append(' ');
          line = text.get(++i).strip();
        }
        String command =
            COMMENT.matcher(joined + line).replaceFirst("").strip().replaceAll("\\s+", " ");
        if (!command.startsWith("#") && !invocations(command).isEmpty()) {
          lines.add(new DocLine(file, first + 1, command, List.of(), List.of()));
        }
      } else if (fence != null && line.startsWith("$ ")) {
        List<String> shown = new ArrayList<>();
        List<String> typed = new ArrayList<>();
        int first = i;
        while (i + 1 < text.size()
            && !text.get(i + 1).startsWith("$ ")
            && !text.get(i + 1).startsWith("```")) {
          String next = text.get(++i);
          if (next.startsWith("vtscope> ")) {
            typed.add(COMMENT.matcher(next.substring(9)).replaceFirst("").strip());
          } else if (!next.isBlank()) {
            shown.add(next);
          }
        }
        lines.add(new DocLine(file, first + 1, line.substring(2).strip(), shown, typed));
      }
    }
    return lines;
  }
}
