package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.IntervalStream;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.Site;
import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.report.WatchView;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import jdk.jfr.Recording;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import picocli.CommandLine;

/**
 * A recording whose class, method and thread names were chosen to break each output: terminal
 * control sequences (a reset, an 8-bit CSI, a window title), Markdown (a line break and a heading,
 * bold, pipes, backticks), HTML, a right-to-left override, and a very long name. The classes are
 * written at test time; virtual threads named the same way pin in their class initializers, so the
 * names reach findings, sites and stacks. Recorded once, then run through every command and format:
 * no raw control or bidirectional character in text, Markdown tables keep their columns, JUnit XML
 * parses, OpenMetrics keeps its grammar, JSON keeps the exact names.
 */
class HostileNamesTest {

  /** The hostile part of each class's simple name, and of its method's. */
  private static final List<String> PAYLOADS =
      List.of(
          "Reset\u001Bc",
          "Csi\u009B31m",
          "Title\u001B]0;title\u0007",
          "Heading\n## HEADING\n",
          "Bold**bold**",
          "Pipe|a|b",
          "Tick`x``y",
          "Script<script>alert(1)",
          "Bidi\u202Eevil");

  /** A method name of 40,000 characters: a class file holds at most 65,535 bytes of one name. */
  private static final String LONG_METHOD = "long" + "x".repeat(40_000);

  /** A package whose name holds a {@code $}: the source file comes from the simple name. */
  private static final String DOLLAR_PACKAGE_CLASS = "ünï$pkg.sub.Kläss$In$ner";

  private static final String THREAD_100K = "t" + "y".repeat(100_000);

  private static Path dir;
  private static Path recording;
  private static final List<String> CLASSES = new ArrayList<>();

  @BeforeAll
  static void record() throws Exception {
    dir = Files.createTempDirectory("vtscope-hostile-names");
    recording = dir.resolve("hostile.jfr");
    List<String> methods = new ArrayList<>();
    for (String p : PAYLOADS) {
      // a class or method name may not hold a ;
      CLASSES.add("hostile." + p.replace(";", ""));
      // a method name may not hold < or >
      methods.add("in" + p.replace("<", "").replace(">", "").replace(";", ""));
    }
    CLASSES.add("hostile.LongName");
    methods.add(LONG_METHOD);
    CLASSES.add(DOLLAR_PACKAGE_CLASS);
    methods.add("pin");
    Loader loader = new Loader();
    for (int i = 0; i < CLASSES.size(); i++) {
      loader.add(CLASSES.get(i), methods.get(i));
    }
    try (Recording r = new Recording()) {
      r.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      r.enable("jdk.JVMInformation");
      r.enable("jdk.ActiveSetting");
      r.start();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < CLASSES.size(); i++) {
        String name = CLASSES.get(i);
        String threadName = i < PAYLOADS.size() ? "vt-" + PAYLOADS.get(i) : THREAD_100K;
        threads.add(
            Thread.ofVirtual()
                .name(threadName)
                .start(
                    () -> {
                      try {
                        Class.forName(name, true, loader);
                      } catch (ClassNotFoundException e) {
                        throw new IllegalStateException(e);
                      }
                    }));
      }
      for (Thread t : threads) {
        t.join();
      }
      r.stop();
      r.dump(recording);
    }
  }

  @AfterAll
  static void removeTheFiles() {
    TestRecordings.deleteAtExit(dir);
  }

  @Test
  void theRecordingHoldsTheHostileNames() {
    Analysis a = analysis();
    List<String> holders =
        a.pinned().sites().stream()
            .filter(s -> s.attribution() != null)
            .map(s -> s.attribution().culprit().className())
            .toList();
    assertThat(holders).as("every hostile class pinned").containsAll(CLASSES);
  }

  @Test
  void textKeepsNoControlCharacterAndShortensLongNames() {
    for (String[] args :
        List.of(
            new String[] {"analyze", "--top", "50", recording.toString()},
            new String[] {"analyze", "--top", "50", "--color", "always", recording.toString()},
            new String[] {"analyze", "--top", "50", "--stack-depth", "all", recording.toString()},
            new String[] {"check", "--fail-on", "info", recording.toString()},
            new String[] {"diff", sample(), recording.toString()})) {
      Cli.Result r = Cli.run(args);
      // 6: check failed, 7: diff found a regression
      assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r.err()).isIn(0, 6, 7);
      assertPrintable(String.join(" ", args), r.out(), true);
      assertPrintable(String.join(" ", args), r.err(), false);
      // analyze shows every site (--top 50); which holders check and diff name first depends on
      // how long each pinned, which a busy machine changes: some name, escaped
      if (args[0].equals("analyze")) {
        assertThat(r.out()).contains("\\u001Bc", "\\u009B31m", "\\u202Eevil", "\\n## HEADING\\n");
      } else {
        assertThat(r.out()).containsPattern("\\\\u(001B|009B|202E)|\\\\n## HEADING");
      }
      assertThat(r.out().lines().mapToInt(String::length).max().orElse(0))
          .as("the longest line of " + String.join(" ", args))
          .isLessThan(1_000);
    }
    // every site, the long method's and the nested class's among them
    String text = Cli.run("analyze", "--top", "50", recording.toString()).out();
    assertThat(text).contains("characters left out]…");
    assertThat(text)
        .as("the source file of a class in a package with a $")
        .contains("ünï$pkg.sub.Kläss$In$ner.pin(Kläss.java:20)");
  }

  @Test
  void markdownTablesKeepTheirColumnsAndNoNameRenders() {
    for (String[] args :
        List.of(
            new String[] {"analyze", "--top", "50", "--format", "markdown", recording.toString()},
            new String[] {
              "check", "--fail-on", "info", "--format", "markdown", recording.toString()
            },
            new String[] {"diff", "--format", "markdown", sample(), recording.toString()})) {
      Cli.Result r = Cli.run(args);
      String what = String.join(" ", args);
      assertThat(r.exitCode()).as(what + ": " + r.err()).isIn(0, 6, 7);
      assertPrintable(what, r.out(), true);
      assertStrictTables(what, r.out());
      for (String line : r.out().lines().toList()) {
        String rendered = outsideCode(line);
        assertThat(rendered).as(what + ": " + line).doesNotContain("**bold**", "<script>");
        assertThat(line).as(what).doesNotStartWith("## HEADING");
      }
      if (args[0].equals("analyze")) {
        assertThat(r.out()).as(what).contains("HEADING");
      }
    }
  }

  @Test
  void junitXmlParses() throws Exception {
    Path junit = dir.resolve("check.xml");
    Cli.Result r = Cli.run("check", "--fail-on", "info", "--junit", junit.toString(), path());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(6);
    var xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
    assertThat(xml.getElementsByTagName("failure").getLength()).isPositive();
    String written = Files.readString(junit);
    assertThat(written).contains("\\u001Bc").doesNotContain("\u001B", "\u009B", "\u202E");
  }

  @Test
  void openMetricsKeepsItsGrammar() {
    // every holder a series of its own: which ones fall past the default top depends on how long
    // each pinned, which a busy machine changes
    Cli.Result r = Cli.run("analyze", "--format", "openmetrics", "--top", "100", path());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertOpenMetrics(r.out());
    // a line feed by the format's escape, which a parser reads back; what it has no escape for
    // replaced by U+FFFD, never written as text a parser would read back as other characters
    assertThat(r.out())
        .contains("Reset\uFFFDc", "Heading\\n## HEADING\\n")
        .doesNotContain("\\u001B", "\\u202E");
  }

  @Test
  void jsonAndHtmlKeepTheExactNames() throws Exception {
    Cli.Result json = Cli.run("analyze", "--format", "json", path());
    assertThat(json.exitCode()).as(json.err()).isZero();
    List<String> texts = new ArrayList<>();
    new ObjectMapper().readTree(json.out()).forEach(n -> collectTexts(n, texts));
    for (String c : CLASSES) {
      assertThat(texts).as("the exact name " + c).anyMatch(t -> t.contains(c));
    }
    assertThat(texts).anyMatch(t -> t.contains(LONG_METHOD));

    Cli.Result html = Cli.run("analyze", "--format", "html", path());
    assertThat(html.exitCode()).as(html.err()).isZero();
    // the page shows names exact too, as text nodes: no name can open an element
    assertThat(html.out()).doesNotContain("<script>alert", "\u001B");
  }

  @Test
  void exploreShowsNamesEscaped() throws Exception {
    List<RecordingInput> inputs = RecordingInputs.resolve(List.of(recording));
    CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create();
    AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.REPORT);
    new CommandLine(spec).setCaseInsensitiveEnumValuesAllowed(true).parseArgs();
    Analyzer analyzer = analysisOptions.analyzer(inputs, null);
    Analysis analysis = analysisOptions.analyze(analyzer, inputs);
    StringBuilder script = new StringBuilder("findings\nsites\n");
    for (int i = 1; i <= advice(analysis).size(); i++) {
      script.append("finding ").append(i).append('\n');
    }
    for (int i = 1; i <= analysis.pinned().sites().size(); i++) {
      script.append("site ").append(i).append('\n');
    }
    script.append("group stack\nsites\ncompare ").append(recording).append("\nquit\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Terminal terminal =
        TerminalBuilder.builder()
            .system(false)
            .dumb(true)
            .streams(
                new ByteArrayInputStream(script.toString().getBytes(StandardCharsets.UTF_8)), out)
            .build()) {
      new Explorer(analyzer, analysis, analysisOptions, inputs).run(terminal);
    }
    // the terminal library's own modes (keypad, bracketed paste, mouse) set and reset
    String shown =
        out.toString(StandardCharsets.UTF_8).replaceAll("\u001B(\\[\\?[0-9;]*[hl]|[=>])", "");
    assertPrintable("explore", shown, true);
    assertThat(shown).contains("\\u001Bc", "\\u202Eevil", "characters left out]…");
    assertThat(shown.lines().mapToInt(String::length).max().orElse(0)).isLessThan(1_000);
  }

  @Test
  void watchShowsNamesEscapedAndShort() throws Exception {
    IntervalStream live =
        IntervalStream.keepingTotal(
            new AnalysisOptions(GroupBy.CULPRIT, List.of(), List.of(), List::of), "test", null, 0);
    ReaderKind.VTSCOPE.create().read(recording, ChunkScanner.scan(recording), live);
    IntervalStream.Tick tick = live.next(Long.MAX_VALUE / 2);
    List<PinnedNow> pinnedNow = new ArrayList<>();
    long tid = 1;
    for (Site s : tick.total().pinned().sites()) {
      String name = "vt-" + PAYLOADS.get((int) (tid % PAYLOADS.size()));
      pinnedNow.add(new PinnedNow(tid++, name, 1, s.attribution()));
    }
    pinnedNow.add(new PinnedNow(tid, THREAD_100K, 2, pinnedNow.get(0).attribution()));
    LiveSnapshot snapshot = LiveSnapshot.of(tick, pinnedNow, null, null);
    List<Finding> findings = Advisor.standard().advise(tick.total()).findings();
    WatchView view = new WatchView(0, 20);
    String lines =
        String.join(
            "\n",
            view.lines(
                snapshot,
                findings,
                findings.stream().map(Finding::id).collect(java.util.stream.Collectors.toSet()),
                Map.of(),
                2_000_000_000L));
    String screen =
        String.join(
            "\n",
            view.screen(
                "pid 1 hostile.Main\u001Bc",
                snapshot,
                findings,
                Set.of(),
                Map.of(),
                2_000_000_000L,
                2_000_000_000L));
    for (String shown : List.of(lines, screen)) {
      assertPrintable("watch", shown, true);
      assertThat(shown).contains("\\u001Bc");
      assertThat(shown.lines().mapToInt(String::length).max().orElse(0)).isLessThan(2_000);
    }
    assertThat(lines).contains("characters left out]…");
  }

  private static List<Finding> advice(Analysis a) {
    return Advisor.standard().advise(a).findings();
  }

  private static Analysis analysis() {
    return dev.vtscope.testing.Reports.analyze("hostile.jfr", recording, GroupBy.CULPRIT);
  }

  private static String path() {
    return recording.toString();
  }

  private static String sample() {
    return TestRecordings.repoRoot().resolve("samples/jdk25/native-pinning.jfr").toString();
  }

  private static void collectTexts(JsonNode node, List<String> texts) {
    if (node.isTextual()) {
      texts.add(node.textValue());
    }
    node.forEach(n -> collectTexts(n, texts));
  }

  /**
   * No C0 control but the line feed (and a tab or carriage return where allowed), no DEL, no C1
   * control, no bidirectional control; the colour codes of {@code --color always} (ESC [ digits m)
   * are vtscope's own.
   */
  private static void assertPrintable(String what, String text, boolean lines) {
    String plain = text.replaceAll("\u001B\\[[0-9;]*m", "");
    for (int i = 0; i < plain.length(); i++) {
      char c = plain.charAt(i);
      boolean allowed = c == '\n' || (lines && c == '\r');
      boolean control = c < 0x20 || (c >= 0x7F && c <= 0x9F);
      boolean bidi =
          c == 0x061C
              || c == 0x200E
              || c == 0x200F
              || (c >= 0x202A && c <= 0x202E)
              || (c >= 0x2066 && c <= 0x2069);
      if ((control && !allowed) || bidi) {
        String around = plain.substring(Math.max(0, i - 60), Math.min(plain.length(), i + 60));
        throw new AssertionError(
            what
                + ": raw U+"
                + String.format("%04X", (int) c)
                + " in: "
                + around
                    .chars()
                    .mapToObj(
                        ch -> ch < 0x20 || ch > 0x7E ? String.format("<%04X>", ch) : "" + (char) ch)
                    .collect(java.util.stream.Collectors.joining()));
      }
    }
  }

  /**
   * Every row of every table has as many cells as the table's header: cells are split at each pipe
   * not escaped by a backslash, as GitHub does, even inside code spans.
   */
  private static void assertStrictTables(String what, String markdown) {
    Integer columns = null;
    for (String line : markdown.lines().toList()) {
      if (!line.startsWith("|")) {
        columns = null;
        continue;
      }
      int cells = cells(line);
      if (columns == null) {
        columns = cells;
      } else {
        assertThat(cells)
            .as(what + ": row of a table of " + columns + ": " + line)
            .isEqualTo(columns);
      }
    }
  }

  private static int cells(String row) {
    int pipes = 0;
    for (int i = 0; i < row.length(); i++) {
      char c = row.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '|') {
        pipes++;
      }
    }
    assertThat(row.strip()).as("a table row ends with a pipe: " + row).endsWith("|");
    return pipes - 1;
  }

  /** The parts of a Markdown line that render as Markdown: escapes and code spans taken out. */
  private static String outsideCode(String line) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length()) {
        i += 2;
      } else if (c == '`') {
        int run = 0;
        while (i + run < line.length() && line.charAt(i + run) == '`') {
          run++;
        }
        String fence = "`".repeat(run);
        int close = i + run;
        int end = -1;
        while ((close = line.indexOf(fence, close)) >= 0) {
          int after = close + run;
          if ((after >= line.length() || line.charAt(after) != '`')
              && line.charAt(close - 1) != '`') {
            end = close;
            break;
          }
          close = after;
        }
        if (end < 0) {
          out.append(fence);
          i += run;
        } else {
          i = end + run;
        }
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final String ESCAPED = "(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*";
  private static final Pattern SAMPLE =
      Pattern.compile(
          "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[a-zA-Z_][a-zA-Z0-9_]*=\""
              + ESCAPED
              + "\"(,[a-zA-Z_][a-zA-Z0-9_]*=\""
              + ESCAPED
              + "\")*\\})? -?[0-9.eE+-]+");
  private static final Pattern DESCRIPTOR =
      Pattern.compile(
          "# (TYPE|UNIT|HELP) ([a-zA-Z_:][a-zA-Z0-9_:]*) (?:[^\\\\\\n]|\\\\[\\\\\"n])*");

  /** Each line as OpenMetrics' grammar has it, the last {@code # EOF}, no raw control character. */
  private static void assertOpenMetrics(String text) {
    assertThat(text).endsWith("# EOF\n");
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      assertPrintable("openmetrics", line, false);
      if (i == lines.size() - 1) {
        assertThat(line).isEqualTo("# EOF");
      } else if (line.startsWith("#")) {
        assertThat(DESCRIPTOR.matcher(line).matches()).as("a descriptor: " + line).isTrue();
      } else {
        var m = SAMPLE.matcher(line);
        assertThat(m.matches()).as("a sample: " + line).isTrue();
        assertThat(METRIC_NAME.matcher(m.group(1)).matches()).isTrue();
      }
    }
  }

  /** Defines the hostile classes: each pins in its initializer, in a method of its own. */
  private static final class Loader extends ClassLoader {
    private final java.util.Map<String, byte[]> classes = new java.util.HashMap<>();

    Loader() {
      super(HostileNamesTest.class.getClassLoader());
    }

    void add(String name, String method) {
      classes.put(name, classFile(name.replace('.', '/'), method));
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] bytes = classes.get(name);
      if (bytes == null) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, bytes, 0, bytes.length);
    }

    /** {@code static { method(); }} at line 10, {@code static void method() { sleep }} at 20. */
    private static byte[] classFile(String internalName, String method) {
      ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
      cw.visit(
          Opcodes.V21,
          Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER,
          internalName,
          null,
          "java/lang/Object",
          null);
      MethodVisitor init = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
      init.visitCode();
      Label l10 = new Label();
      init.visitLabel(l10);
      init.visitLineNumber(10, l10);
      init.visitMethodInsn(Opcodes.INVOKESTATIC, internalName, method, "()V", false);
      init.visitInsn(Opcodes.RETURN);
      init.visitMaxs(0, 0);
      init.visitEnd();
      MethodVisitor m =
          cw.visitMethod(Opcodes.ACC_STATIC | Opcodes.ACC_PUBLIC, method, "()V", null, null);
      m.visitCode();
      Label l20 = new Label();
      m.visitLabel(l20);
      m.visitLineNumber(20, l20);
      m.visitLdcInsn(30L);
      m.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Thread", "sleep", "(J)V", false);
      m.visitInsn(Opcodes.RETURN);
      m.visitMaxs(0, 0);
      m.visitEnd();
      cw.visitEnd();
      return cw.toByteArray();
    }
  }
}
