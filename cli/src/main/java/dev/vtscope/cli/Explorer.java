package dev.vtscope.cli;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Evidence;
import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.recording.Frame;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * The interactive shell of {@code vtscope explore} over one analysis: the recordings are read once,
 * and every command works on what was read (grouping again included). Commands print plain text;
 * the prompt has history and completes commands, sections, site numbers and frame names.
 */
final class Explorer {

  /** The forms {@code save} writes: a report of one analysis, which the metrics are not. */
  private static final java.util.Set<ReportFormat> SAVED_FORMATS =
      java.util.EnumSet.of(
          ReportFormat.TEXT, ReportFormat.JSON, ReportFormat.MARKDOWN, ReportFormat.HTML);

  private static final dev.vtscope.report.Wording WORDING = dev.vtscope.report.Wording.standard();

  /** The commands, with what {@code help} says of each. */
  private static final List<String[]> COMMANDS =
      List.of(
          new String[] {"findings", "the findings, most severe first"},
          new String[] {"finding N", "finding N whole: why, what to do, the evidence"},
          new String[] {
            "sites [pinned|enter|wait|cpu|file|all] [filter TEXT] [min DURATION]",
            "the sites of a section (default all), numbered; filter by package, class, method or"
                + " kind of the culprit, or of the frame it was called from, waited in, or any"
                + " frame of its stack; min 10ms"
          },
          new String[] {
            "site N", "site N whole: holder, percentiles, threads, first/last seen, stack"
          },
          new String[] {"group culprit|stack|top-frame|reason", "group the sites another way"},
          new String[] {"compare FILE", "what is fixed, new or worse in another recording"},
          new String[] {"save text|json|markdown|html FILE", "write the report as it stands"},
          new String[] {"help", "this list"},
          new String[] {"quit", "leave (also exit, Ctrl-D)"});

  private final Analyzer analyzer;
  private final AnalysisMixin analysisOptions;
  private final List<dev.vtscope.recording.RecordingInput> inputs;
  private Analysis analysis;
  private Advice advice;

  /** The sites the last {@code sites} command listed, by number. */
  private List<Site> listed = List.of();

  Explorer(
      Analyzer analyzer,
      Analysis analysis,
      AnalysisMixin analysisOptions,
      List<dev.vtscope.recording.RecordingInput> inputs) {
    this.analyzer = analyzer;
    this.analysisOptions = analysisOptions;
    this.inputs = inputs;
    use(analysis);
  }

  private void use(Analysis a) {
    analysis = a;
    advice = Advisor.standard().advise(a);
    listed = sites("all");
  }

  /** Reads commands from {@code terminal} until quit or end of input. */
  void run(Terminal terminal) {
    LineReader reader =
        LineReaderBuilder.builder()
            .terminal(terminal)
            .appName("vtscope")
            .completer(completer())
            .variable(LineReader.HISTORY_SIZE, 500)
            .build();
    PrintWriter out = terminal.writer();
    out.println(
        "vtscope explore: "
            + analysis.inputs().size()
            + (analysis.inputs().size() == 1 ? " recording, " : " recordings, ")
            + count(advice.findings().size(), "finding")
            + ", "
            + count(listed.size(), "site")
            + ". 'help' lists the commands.");
    out.flush();
    while (true) {
      String line;
      try {
        line = reader.readLine("vtscope> ");
      } catch (UserInterruptException e) {
        continue; // Ctrl-C clears the line
      } catch (EndOfFileException e) {
        break;
      }
      if (line == null) {
        break;
      }
      String command = line.strip();
      if (command.equals("quit") || command.equals("exit")) {
        break;
      }
      if (!command.isEmpty()) {
        out.print(execute(command));
        out.flush();
      }
    }
  }

  /** Runs one command and returns what it prints. */
  String execute(String line) {
    List<String> words = List.of(line.strip().split("\\s+"));
    String command = words.get(0).toLowerCase(Locale.ROOT);
    try {
      return switch (command) {
        case "help", "?" -> help();
        case "findings" -> findings();
        case "finding" -> finding(number(words, 1, advice.findings().size()));
        case "sites" -> sitesCommand(words);
        case "site" -> site(number(words, 1, listed.size()));
        case "group" -> group(words);
        case "compare" -> compare(words);
        case "save" -> save(words);
        default ->
            "unknown command '"
                + command
                + "'"
                + suggestion(command)
                + "; 'help' lists the commands\n";
      };
    } catch (IllegalArgumentException | ExitException e) {
      return e.getMessage() + "\n";
    }
  }

  private static String suggestion(String command) {
    for (String[] c : COMMANDS) {
      String name = c[0].split(" ")[0];
      if (name.startsWith(command) || command.startsWith(name)) {
        return " (did you mean '" + name + "'?)";
      }
    }
    return "";
  }

  private static int number(List<String> words, int at, int count) {
    if (words.size() <= at) {
      throw new IllegalArgumentException(
          words.get(0)
              + " needs a number from 1 to "
              + count
              + " (see '"
              + plural(words.get(0))
              + "')");
    }
    try {
      int n = Integer.parseInt(words.get(at));
      if (n < 1 || n > count) {
        throw new IllegalArgumentException(
            words.get(0) + " " + n + ": there are " + count + " (numbers from 1)");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          words.get(0) + " needs a number, not '" + words.get(at) + "'");
    }
  }

  /** {@code n} and {@code noun}, singular for one: {@code 1 site}, {@code 2 sites}. */
  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String plural(String command) {
    return command.equals("site") ? "sites" : "findings";
  }

  private String help() {
    StringBuilder s = new StringBuilder();
    for (String[] c : COMMANDS) {
      s.append(String.format(Locale.ROOT, "  %-40s %s%n", c[0], c[1]));
    }
    return s.toString();
  }

  private String findings() {
    StringBuilder s = new StringBuilder();
    int i = 1;
    for (Finding f : advice.findings()) {
      s.append(
          String.format(
              Locale.ROOT, "%3d  [%-6s] %s%n", i++, f.severity().label(), WORDING.title(f)));
    }
    if (advice.carrierPool() != null) {
      s.append("     carrier pool: ")
          .append(
              advice.carrierPool().javaOptions() == null
                  ? "keep it"
                  : advice.carrierPool().javaOptions())
          .append('\n');
    }
    return s.toString();
  }

  private String finding(int n) {
    Finding f = advice.findings().get(n - 1);
    StringBuilder s = new StringBuilder();
    s.append("[").append(f.severity().label()).append("] ").append(WORDING.title(f)).append("\n\n");
    s.append(WORDING.explanation(f)).append("\n\n");
    for (String action : WORDING.actions(f)) {
      s.append("  - ").append(action).append('\n');
    }
    s.append('\n');
    for (Evidence e : f.evidence()) {
      s.append("  ").append(e.label()).append(": ").append(e.text()).append('\n');
    }
    s.append("  see ").append(f.documentation()).append('\n');
    return s.toString();
  }

  /** The sites of a section, largest first. */
  private List<Site> sites(String section) {
    List<Site> all = new ArrayList<>();
    analysis
        .siteSections()
        .forEach(
            (name, sites) -> {
              // the word a user types for each section: pinned, enter, wait, cpu, file
              String word = name.startsWith("monitor ") ? name.substring(8) : name.split(" ")[0];
              if (section.equals("all") || section.equalsIgnoreCase(word)) {
                all.addAll(sites);
              }
            });
    all.sort(java.util.Comparator.comparingLong((Site s) -> s.durations().totalNanos()).reversed());
    return all;
  }

  private String sitesCommand(List<String> words) {
    String section = "all";
    String filter = null;
    long min = 0;
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i).toLowerCase(Locale.ROOT);
      if (List.of("pinned", "enter", "wait", "cpu", "file", "all").contains(w)) {
        section = w;
      } else if (w.equals("filter") && i + 1 < words.size()) {
        filter = words.get(++i).toLowerCase(Locale.ROOT);
      } else if (w.equals("min") && i + 1 < words.size()) {
        min = DurationParser.nanos(words.get(++i), "min");
      } else {
        throw new IllegalArgumentException(
            "sites takes a section (pinned, enter, wait, cpu, file, all), filter TEXT and min"
                + " DURATION, not '"
                + words.get(i)
                + "'");
      }
    }
    String f = filter;
    long m = min;
    listed =
        sites(section).stream()
            .filter(s -> s.durations().totalNanos() >= m)
            .filter(s -> f == null || matches(s, f))
            .toList();
    if (listed.isEmpty()) {
      return "no site" + (f != null || m > 0 ? " matches" : "") + "\n";
    }
    StringBuilder s = new StringBuilder();
    int i = 1;
    for (Site site : listed) {
      s.append(
          String.format(
              Locale.ROOT,
              "%3d  %9s  %6d %-6s  %s%n",
              i++,
              HumanDurations.format(site.durations().totalNanos()),
              site.durations().count(),
              site.durations().count() == 1 ? "event" : "events",
              row(site)));
    }
    return s.toString();
  }

  /**
   * Whether {@code filter} (lower case) is part of the site's culprit (its method, kind, owner and
   * library), the frame it was called from, the frame it waited in, or any frame of its stack: a
   * team filters by its own package, which often shows only as the caller of a library or the JDK.
   */
  private static boolean matches(Site site, String filter) {
    if (describe(site).toLowerCase(Locale.ROOT).contains(filter)) {
      return true;
    }
    Attribution a = site.attribution();
    List<Frame> frames = new ArrayList<>();
    if (a != null && a.calledFrom() != null) {
      frames.add(a.calledFrom());
    }
    if (a != null && a.waitedAt() != null) {
      frames.add(a.waitedAt());
    }
    if (site.stack() != null) {
      frames.addAll(site.stack().frames());
    }
    return frames.stream()
        .anyMatch(
            frame ->
                (frame.className() + "." + frame.method())
                    .toLowerCase(Locale.ROOT)
                    .contains(filter));
  }

  /**
   * A site as a row of a list: its culprit and, grouped another way than by culprit, what tells it
   * from the other sites of the same culprit (where it waited, or the reason JFR gave).
   */
  private String row(Site site) {
    return switch (analysis.groupBy()) {
      case CULPRIT -> describe(site);
      case REASON ->
          describe(site)
              + (site.reason() == null
                  ? "  no reason recorded (JDK 21-23 record none): grouped by culprit"
                  : "  reason " + site.reason());
      case TOP_FRAME -> describe(site) + waitedIn(site);
      case STACK -> describe(site) + waitedIn(site) + via(site);
    };
  }

  private static String waitedIn(Site site) {
    return "  waited in "
        + (site.topApplicationFrame() == null
            ? "JDK code only"
            : site.topApplicationFrame().display());
  }

  /**
   * For a stack that another listed site of the same culprit and waiting frame shares its top with:
   * the first frame, from the top, that none of those others has at the same depth.
   */
  private String via(Site site) {
    if (site.stack() == null) {
      return "";
    }
    String same = describe(site) + waitedIn(site);
    List<List<Frame>> others =
        listed.stream()
            .filter(o -> o != site && o.stack() != null)
            .filter(o -> (describe(o) + waitedIn(o)).equals(same))
            .map(o -> o.stack().frames())
            .toList();
    if (others.isEmpty()) {
      return "";
    }
    List<Frame> frames = site.stack().frames();
    for (int depth = 0; depth < frames.size(); depth++) {
      String frame = frames.get(depth).display();
      int d = depth;
      if (others.stream().noneMatch(o -> d < o.size() && o.get(d).display().equals(frame))) {
        return "  via " + frame;
      }
    }
    // The same frames as a person reads them: JFR told the stacks apart by how a frame ran.
    for (int depth = 0; depth < frames.size(); depth++) {
      Frame frame = frames.get(depth);
      int d = depth;
      if (others.stream()
          .noneMatch(o -> d < o.size() && Objects.equals(o.get(d).type(), frame.type()))) {
        return "  via "
            + frame.display()
            + " ("
            + (frame.type() == null ? "of no recorded type" : frame.type())
            + ")";
      }
    }
    return "  (the same frames)";
  }

  private static String describe(Site site) {
    Attribution a = site.attribution();
    if (a == null) {
      return site.key();
    }
    Culprit c = a.culprit();
    return c.qualifiedMethod()
        + "  ("
        + c.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')
        + ", "
        + c.owner().name().toLowerCase(Locale.ROOT)
        + (c.artifact() != null ? ", " + c.artifact().display() : "")
        + ")";
  }

  private String site(int n) {
    Site site = listed.get(n - 1);
    StringBuilder s = new StringBuilder();
    s.append(row(site)).append('\n');
    var d = site.durations();
    s.append(
        String.format(
            Locale.ROOT,
            "  %s in %s, %s; min %s, p50 %s, p90 %s, p99 %s, max %s%n",
            HumanDurations.format(d.totalNanos()),
            count(d.count(), "event"),
            count(site.virtualThreads(), "thread"),
            HumanDurations.format(d.minNanos()),
            HumanDurations.format(d.p50Nanos()),
            HumanDurations.format(d.p90Nanos()),
            HumanDurations.format(d.p99Nanos()),
            HumanDurations.format(d.maxNanos())));
    s.append("  first seen ")
        .append(instant(site.firstSeenNanos()))
        .append(", last seen ")
        .append(instant(site.lastSeenNanos()))
        .append('\n');
    Attribution a = site.attribution();
    if (a != null) {
      if (a.waitedAt() != null) {
        s.append("  waited in   ").append(a.waitedAt().display()).append('\n');
      }
      if (a.calledFrom() != null) {
        s.append("  called from ").append(a.calledFrom().display()).append('\n');
      }
      if (a.culprit().detail() != null) {
        s.append("  note        ").append(a.culprit().detail()).append('\n');
      }
    }
    s.append("  stack (innermost first):\n");
    List<Frame> frames = site.stack().frames();
    int holder = a == null ? -1 : a.culprit().frameIndex();
    for (int i = 0; i < frames.size(); i++) {
      s.append(i == holder ? "  > at " : "    at ")
          .append(frames.get(i).display())
          .append(i == holder ? "  <- holds the carrier" : "")
          .append('\n');
    }
    if (site.stack().truncated()) {
      s.append("    … (the recording cut the stack at its depth)\n");
    }
    return s.toString();
  }

  private static String instant(long nanos) {
    return Instant.ofEpochSecond(0, nanos).toString();
  }

  private String group(List<String> words) {
    if (words.size() < 2) {
      throw new IllegalArgumentException("group takes culprit, stack, top-frame or reason");
    }
    GroupBy groupBy;
    try {
      groupBy = new GroupByConverter().convert(words.get(1));
    } catch (Exception e) {
      throw new IllegalArgumentException(
          "group takes culprit, stack, top-frame or reason, not '" + words.get(1) + "'");
    }
    use(analyzer.regroup(groupBy));
    return "grouped by " + groupBy.label() + ": " + count(listed.size(), "site") + "\n";
  }

  private String compare(List<String> words) {
    if (words.size() < 2) {
      throw new IllegalArgumentException("compare needs a recording");
    }
    Path other = Path.of(words.get(1));
    Analysis after;
    try {
      after =
          analysisOptions.analyze(
              dev.vtscope.recording.RecordingInputs.resolve(List.of(other)), analysis.groupBy());
    } catch (dev.vtscope.recording.InputProblemException | ExitException e) {
      // Problems with an input name it first already; say the name once.
      String problem = e.getMessage();
      throw new IllegalArgumentException(
          problem.startsWith(other.toString()) ? problem : other + ": " + problem);
    }
    java.io.StringWriter text = new java.io.StringWriter();
    new TextReport(TextStyle.PLAIN)
        .render(
            new dev.vtscope.report.Report.Compared(
                dev.vtscope.gate.Differ.diff(analysis, after, 0.1)),
            new PrintWriter(text));
    return text.toString();
  }

  private String save(List<String> words) {
    if (words.size() < 3) {
      throw new IllegalArgumentException(
          "save takes a format (text, json, markdown, html) and a file");
    }
    ReportFormat format = ReportFormat.among(SAVED_FORMATS, words.get(1));
    if (format == null) {
      throw new IllegalArgumentException(
          "save takes text, json, markdown or html, not '"
              + words.get(1).toLowerCase(Locale.ROOT)
              + "'");
    }
    ReportRenderer renderer = format.renderer(TextStyle.PLAIN, TextStyle.PLAIN.topSites());
    Path file = Path.of(words.get(2));
    if (OutputOptions.isOneOf(file, RecordingInputOptions.files(inputs))) {
      throw new IllegalArgumentException(file + " is a recording being read: choose another file");
    }
    try {
      OutputFile.writeText(file, out -> renderer.render(analysis, advice, out));
    } catch (ExitException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    return "saved " + words.get(1) + " to " + file + "\n";
  }

  /** Completes commands, their words, site and finding numbers and, after filter, frame names. */
  private Completer completer() {
    return (reader, line, candidates) -> {
      List<String> words = line.words();
      int at = line.wordIndex();
      if (at == 0) {
        for (String[] c : COMMANDS) {
          candidates.add(new Candidate(c[0].split(" ")[0]));
        }
        candidates.add(new Candidate("exit"));
        return;
      }
      String command = words.get(0);
      String previous = at > 0 ? words.get(at - 1) : "";
      switch (command) {
        case "sites" -> {
          if (previous.equals("filter")) {
            for (Site s : sites("all")) {
              if (s.attribution() != null) {
                candidates.add(new Candidate(s.attribution().culprit().className()));
                candidates.add(new Candidate(s.attribution().culprit().qualifiedMethod()));
              }
            }
          } else if (!previous.equals("min")) {
            for (String w :
                List.of("pinned", "enter", "wait", "cpu", "file", "all", "filter", "min")) {
              candidates.add(new Candidate(w));
            }
          }
        }
        case "site" -> {
          for (int i = 1; i <= listed.size(); i++) {
            candidates.add(
                new Candidate(
                    String.valueOf(i),
                    String.valueOf(i),
                    null,
                    row(listed.get(i - 1)),
                    null,
                    null,
                    true));
          }
        }
        case "finding" -> {
          for (int i = 1; i <= advice.findings().size(); i++) {
            candidates.add(new Candidate(String.valueOf(i)));
          }
        }
        case "group" -> {
          for (String w : List.of("culprit", "stack", "top-frame", "reason")) {
            candidates.add(new Candidate(w));
          }
        }
        case "save" -> {
          if (at == 1) {
            for (ReportFormat format : SAVED_FORMATS) {
              candidates.add(new Candidate(format.label()));
            }
          }
        }
        default -> {
          // files are completed by the shell's own habits: nothing here
        }
      }
    };
  }
}
