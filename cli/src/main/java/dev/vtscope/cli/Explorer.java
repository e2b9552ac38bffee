package dev.vtscope.cli;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.advice.Evidence;
import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.DumpAnalyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.recording.Frame;
import dev.vtscope.report.DumpReport;
import dev.vtscope.report.Escaping;
import dev.vtscope.report.Report;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.waits.WaitGroup;
import dev.vtscope.waits.WaitKey;
import dev.vtscope.waits.WaitKind;
import dev.vtscope.waits.WaitSeries;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * the prompt has history and completes commands, sections, site numbers and frame names. Over
 * thread dumps the same shell lists their waits instead of sites ({@code waits}, {@code wait N}).
 */
final class Explorer {

  /** The forms {@code save} writes: those of {@code analyze --format}. */
  /** How many threads {@code wait N} names, unless asked for all: a screenful. */
  private static final int THREADS_SHOWN = 50;

  private static final Set<ReportFormat> SAVED_FORMATS = OutputOptions.ANALYSIS_FORMATS.keySet();

  /** The forms {@code save} writes of thread dumps: the metrics formats have no form for them. */
  private static final Set<ReportFormat> SAVED_DUMP_FORMATS =
      java.util.EnumSet.of(
          ReportFormat.TEXT, ReportFormat.JSON, ReportFormat.MARKDOWN, ReportFormat.HTML);

  /** The sections {@code sites} lists, as users type them. */
  private static final List<String> SECTIONS =
      List.of("pinned", "enter", "wait", "cpu", "file", "all");

  /** Where {@code help} starts each command's description, and how wide it is. */
  private static final int HELP_COLUMN = 26;

  private static final int HELP_WIDTH = 80;

  private static final dev.vtscope.report.Wording WORDING = dev.vtscope.report.Wording.terminal();

  /** The commands over recordings, with what {@code help} says of each. */
  private static final List<String[]> COMMANDS =
      List.of(
          new String[] {"findings", "the findings, most severe first"},
          new String[] {"finding N", "finding N whole: why, what to do, the evidence"},
          new String[] {
            "sites [" + String.join("|", SECTIONS) + "] [filter TEXT] [min DURATION]",
            "the sites of a section (default all), largest first, numbered. filter TEXT keeps"
                + " those where TEXT is part of the culprit (package, class, method, kind,"
                + " library), of the frame it was called from or waited in, or of any frame of its"
                + " stack; min 10ms keeps those whose total time is 10 ms or more. A bare 'sites'"
                + " lists them all again"
          },
          new String[] {
            "site N",
            "site N of the last list: holder, percentiles, threads, first/last seen, stack"
          },
          new String[] {"group culprit|stack|top-frame|reason", "group the sites another way"},
          new String[] {"compare FILE", "what is fixed, new or worse in another recording"},
          new String[] {
            "save "
                + String.join("|", SAVED_FORMATS.stream().map(ReportFormat::label).toList())
                + " FILE",
            "write the report as it stands (FILE - shows it here)"
          },
          new String[] {"help", "this list"},
          new String[] {"quit", "leave (also exit, Ctrl-D)"});

  /** The commands over thread dumps, with what {@code help} says of each. */
  private static final List<String[]> DUMP_COMMANDS =
      List.of(
          new String[] {"findings", "the findings, most severe first"},
          new String[] {"finding N", "finding N whole: why, what to do, the evidence"},
          new String[] {
            "waits [KIND] [filter TEXT]",
            "what the threads wait for, in groups (of a series, over every dump), most telling"
                + " first, numbered. KIND keeps one kind of wait (monitor-enter, lock, sleep,"
                + " socket-io, ...; Tab lists them); filter TEXT keeps those where TEXT is part of"
                + " what they wait for and where, or of one of their threads' names. A bare"
                + " 'waits' lists them all again"
          },
          new String[] {
            "wait N [all]",
            "wait N of the last list: its threads' names (the first "
                + THREADS_SHOWN
                + "; all: every one), the example stack and, of a series, the threads in each dump"
          },
          new String[] {
            "save "
                + String.join("|", SAVED_DUMP_FORMATS.stream().map(ReportFormat::label).toList())
                + " FILE",
            "write the report (FILE - shows it here)"
          },
          new String[] {"help", "this list"},
          new String[] {"quit", "leave (also exit, Ctrl-D)"});

  /** The names of the commands, as they are typed. */
  private static final List<String> NAMES = names(COMMANDS);

  private static final List<String> DUMP_NAMES = names(DUMP_COMMANDS);

  private static List<String> names(List<String[]> commands) {
    return java.util.stream.Stream.concat(
            commands.stream().map(c -> c[0].split(" ")[0]), java.util.stream.Stream.of("exit"))
        .toList();
  }

  private final Analyzer analyzer;
  private final AnalysisMixin analysisOptions;
  private final List<dev.vtscope.recording.RecordingInput> inputs;
  private Analysis analysis;
  private Advice advice;

  /** The thread dumps explored, or null when recordings are. */
  private final DumpAnalysis dumps;

  /** The application's packages the dumps were analysed with: a group's threads are read so. */
  private final List<String> appPackages;

  /** The dumps' files, which {@code save} must not overwrite. */
  private final List<Path> dumpFiles;

  /** Each dump's threads by what they wait for, read when first asked for. */
  private final List<Map<WaitKey, List<DumpedThread>>> members = new ArrayList<>();

  /** The waits the last {@code waits} command listed, by number. */
  private List<WaitKey> waitsListed = List.of();

  /** The sites the last {@code sites} command listed, by number. */
  private List<Site> listed = List.of();

  /** How the last {@code sites} command narrowed the list ({@code filter x min 3s}), or "". */
  private String narrowed = "";

  Explorer(
      Analyzer analyzer,
      Analysis analysis,
      AnalysisMixin analysisOptions,
      List<dev.vtscope.recording.RecordingInput> inputs) {
    this.analyzer = analyzer;
    this.analysisOptions = analysisOptions;
    this.inputs = inputs;
    this.dumps = null;
    this.appPackages = List.of();
    this.dumpFiles = List.of();
    use(analysis);
  }

  /**
   * A shell over thread dumps: their waits rather than a recording's sites.
   *
   * @param appPackages the application's packages {@code dumps} was analysed with
   * @param files the dumps' files
   */
  Explorer(DumpAnalysis dumps, List<String> appPackages, List<Path> files) {
    this.analyzer = null;
    this.analysisOptions = null;
    this.inputs = List.of();
    this.dumps = dumps;
    this.appPackages = List.copyOf(appPackages);
    this.dumpFiles = List.copyOf(files);
    this.advice = DumpAdvisor.advise(dumps);
    this.waitsListed = waitKeys();
    for (int i = 0; i < dumps.series().dumps().size(); i++) {
      members.add(null);
    }
  }

  private void use(Analysis a) {
    analysis = a;
    advice = Advisor.standard().advise(a);
    listed = sites("all");
    narrowed = "";
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
    out.println(banner());
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
      if (leaves(command)) {
        break;
      }
      if (!command.isEmpty()) {
        try {
          out.print(answer(command));
        } catch (IllegalArgumentException | ExitException e) {
          out.println(e.getMessage());
        }
        out.flush();
      }
    }
  }

  /**
   * Reads commands from {@code in}, one a line, as from a file of commands: no prompt, answers on
   * {@code out}, and a refused command as one line on {@code err} that names its line; the next
   * lines still run. Blank lines and lines starting with # are skipped.
   *
   * @return whether every command was answered
   */
  boolean runScript(java.io.BufferedReader in, PrintWriter out, PrintWriter err)
      throws IOException {
    err.println(banner());
    err.flush();
    boolean answered = true;
    int number = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      number++;
      String command = line.strip();
      if (leaves(command)) {
        break;
      }
      if (command.isEmpty() || command.startsWith("#")) {
        continue;
      }
      try {
        out.print(answer(command));
        out.flush();
      } catch (IllegalArgumentException | ExitException e) {
        answered = false;
        out.flush();
        err.println(
            Escaping.terminalLine("vtscope explore: line " + number + ": " + e.getMessage()));
        err.flush();
      }
    }
    return answered;
  }

  private String banner() {
    if (dumps != null) {
      int n = dumps.series().dumps().size();
      return "vtscope explore: "
          + (n == 1 ? "1 thread dump, " : n + " thread dumps of one JVM, ")
          + count(advice.findings().size(), "finding")
          + ", "
          + count(waitsListed.size(), "wait")
          + ". 'help' lists the commands.";
    }
    return "vtscope explore: "
        + analysis.inputs().size()
        + (analysis.inputs().size() == 1 ? " recording, " : " recordings, ")
        + count(advice.findings().size(), "finding")
        + ", "
        + count(listed.size(), "site")
        + ". 'help' lists the commands.";
  }

  /** Whether {@code command} leaves the shell: quit or exit, whatever follows them. */
  private static boolean leaves(String command) {
    List<String> words;
    try {
      words = words(command);
    } catch (IllegalArgumentException e) {
      return false; // answer says what is wrong with the line
    }
    String first = words.isEmpty() ? "" : words.get(0).toLowerCase(Locale.ROOT);
    return first.equals("quit") || first.equals("exit");
  }

  /**
   * The words of a command line, split as a shell splits them: at spaces and tabs, but not inside
   * double or single quotes, nor at a space after a backslash ({@code save json "my run.json"},
   * {@code 'my run.json'}, {@code my\ run.json}). Inside single quotes every character is itself;
   * inside double quotes a backslash escapes only a double quote or a backslash. The one way the
   * shell's lines are read.
   *
   * @throws IllegalArgumentException for a quote that is not closed or a backslash that ends the
   *     line
   */
  static List<String> words(String line) {
    List<String> words = new java.util.ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else if (c == '\\'
            && i + 1 < line.length()
            && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (c == ' ' || c == '\t') {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        inWord = true;
        if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '\\') {
          if (i + 1 == line.length()) {
            throw new IllegalArgumentException(
                "a backslash ends the line: it escapes the character after it, e.g. my\\ run.jfr");
          }
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException(
          "the " + (quote == '"' ? "double" : "single") + " quote is not closed: " + line.strip());
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /**
   * Refuses the words after the {@code allowed} ones a command takes: a file name with a space must
   * be quoted, and a word left over was a mistake.
   */
  private static void noMoreThan(List<String> words, int allowed) {
    if (words.size() <= allowed + 1) {
      return;
    }
    String command = words.get(0).toLowerCase(Locale.ROOT);
    String usage =
        COMMANDS.stream()
            .map(c -> c[0])
            .filter(c -> c.equals(command) || c.startsWith(command + " "))
            .findFirst()
            .orElse(command);
    throw new IllegalArgumentException(
        "'"
            + words.get(allowed + 1)
            + "' is one word too many: "
            + usage
            + (usage.endsWith("FILE") ? " (quote a name with spaces: \"my run.jfr\")" : ""));
  }

  /**
   * Runs one command and returns what it prints.
   *
   * @throws IllegalArgumentException when the command is refused, saying why
   */
  private String answer(String line) {
    List<String> words = words(line);
    if (words.isEmpty()) {
      return ""; // "" or '' alone: nothing asked
    }
    String command = words.get(0).toLowerCase(Locale.ROOT);
    noMoreThan(
        words,
        switch (command) {
          case "finding", "site", "group", "compare" -> 1;
          case "wait" -> 2;
          case "save" -> 2;
          case "help", "?", "findings" -> 0;
          // sites checks its words one by one; an unknown command is said as one below
          default -> Integer.MAX_VALUE - 1;
        });
    String otherMode = otherMode(command);
    if (otherMode != null) {
      throw new IllegalArgumentException(otherMode);
    }
    return switch (command) {
      case "help", "?" -> help();
      case "findings" -> findings();
      case "finding" -> finding(number(words, 1, advice.findings().size()));
      case "sites" -> sitesCommand(words);
      case "site" -> site(siteNumber(words));
      case "group" -> group(words);
      case "compare" -> compare(words);
      case "waits" -> waitsCommand(words);
      case "wait" -> waitDetail(number(words, 1, waitsListed.size()), every(words));
      case "save" -> dumps == null ? save(words) : saveDumps(words);
      default -> {
        String meant =
            NearestNames.didYouMean(
                NearestNames.to(command, names().stream().map(List::of).toList()));
        throw new IllegalArgumentException(
            "unknown command '"
                + command
                + "'"
                + (meant.isEmpty()
                    ? "; 'help' lists the commands"
                    : meant + " ('help' lists the commands)"));
      }
    };
  }

  /**
   * The number of a site of the last list; when that list was narrowed, a number beyond it says so
   * and how to list them all.
   */
  private int siteNumber(List<String> words) {
    if (narrowed.isEmpty() || (words.size() > 1 && !words.get(1).matches("\\d{1,9}"))) {
      return number(words, 1, listed.size());
    }
    if (words.size() > 1) {
      int n = Integer.parseInt(words.get(1));
      if (n >= 1 && n <= listed.size()) {
        return n;
      }
    }
    throw new IllegalArgumentException(
        (words.size() > 1 ? "site " + words.get(1) : "site")
            + ": the last 'sites "
            + narrowed
            + "' listed "
            + (listed.isEmpty() ? "none" : count(listed.size(), "site") + " (numbers from 1)")
            + "; 'sites' with no filter lists them all");
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
            words.get(0)
                + " "
                + n
                + (count == 0 ? ": there is none" : ": there are " + count + " (numbers from 1)"));
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          words.get(0) + " needs a number, not '" + words.get(at) + "'");
    }
  }

  /** Why {@code command} is not one of this shell's: it is of the other kind of input; or null. */
  private String otherMode(String command) {
    if (dumps != null && List.of("sites", "site", "group", "compare").contains(command)) {
      return "'"
          + command
          + "' is for recordings: of thread dumps, 'waits' lists what the threads wait for"
          + " and 'wait N' opens one";
    }
    if (dumps == null && List.of("waits", "wait").contains(command)) {
      return "'" + command + "' is for thread dumps: of recordings, 'sites' lists the sites";
    }
    return null;
  }

  private List<String[]> commands() {
    return dumps == null ? COMMANDS : DUMP_COMMANDS;
  }

  private List<String> names() {
    return dumps == null ? NAMES : DUMP_NAMES;
  }

  /** {@code n} and {@code noun}, singular for one: {@code 1 site}, {@code 2 sites}. */
  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String plural(String command) {
    return switch (command) {
      case "site" -> "sites";
      case "wait" -> "waits";
      default -> "findings";
    };
  }

  private String help() {
    StringBuilder s = new StringBuilder();
    String column = " ".repeat(HELP_COLUMN);
    for (String[] c : commands()) {
      // a command too long for its column has its description on the lines below
      String usage = "  " + c[0];
      List<String> meaning =
          HelpLayout.wrap(c[1], HELP_WIDTH - HELP_COLUMN, "").stream()
              .map(l -> column + l)
              .toList();
      if (usage.length() < HELP_COLUMN - 1) {
        s.append(usage).append(meaning.get(0).substring(usage.length())).append('\n');
        meaning = meaning.subList(1, meaning.size());
      } else {
        s.append(usage).append('\n');
      }
      meaning.forEach(l -> s.append(l).append('\n'));
    }
    return s.append("Quote a name with spaces: \"my run.jfr\", 'my run.jfr' or my\\ run.jfr.\n")
        .toString();
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
      s.append("  ")
          .append(e.label())
          .append(": ")
          .append(Escaping.terminal(e.text()))
          .append('\n');
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
    String minText = null;
    long min = 0;
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i).toLowerCase(Locale.ROOT);
      if (SECTIONS.contains(w)) {
        section = w;
      } else if (w.equals("filter")) {
        if (i + 1 == words.size()) {
          throw new IllegalArgumentException(
              "sites filter needs the TEXT to look for, e.g. sites filter com.acme");
        }
        filter = words.get(++i);
      } else if (w.equals("min")) {
        if (i + 1 == words.size()) {
          throw new IllegalArgumentException(
              "sites min needs a site's least total time, e.g. sites min 10ms");
        }
        minText = words.get(++i);
        min = DurationParser.nanos(minText, "min");
      } else {
        throw new IllegalArgumentException(
            "sites takes a section ("
                + String.join(", ", SECTIONS)
                + "), filter TEXT and min DURATION, not '"
                + words.get(i)
                + "'");
      }
    }
    String f = filter;
    long m = min;
    List<Site> all = sites(section);
    listed =
        all.stream()
            .filter(s -> s.durations().totalNanos() >= m)
            .filter(s -> f == null || matches(s, f.toLowerCase(Locale.ROOT)))
            .toList();
    narrowed =
        ((f == null ? "" : "filter " + f) + (minText == null ? "" : " min " + minText)).strip();
    if (listed.isEmpty()) {
      return narrowed.isEmpty() || all.isEmpty()
          ? "no site\n"
          : "no site matches (of "
              + count(all.size(), "site")
              + "; 'sites"
              + (section.equals("all") ? "" : " " + section)
              + "' lists them)\n";
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
                Escaping.terminal(frame.qualifiedMethod())
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
                  : "  reason " + Escaping.terminal(site.reason()));
      case TOP_FRAME -> describe(site) + waitedIn(site);
      case STACK -> describe(site) + waitedIn(site) + via(site);
    };
  }

  private static String waitedIn(Site site) {
    return "  waited in "
        + (site.topApplicationFrame() == null
            ? "JDK code only"
            : Escaping.terminal(site.topApplicationFrame().display()));
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
        return "  via " + Escaping.terminal(frame);
      }
    }
    // The same frames as a person reads them: JFR told the stacks apart by how a frame ran.
    for (int depth = 0; depth < frames.size(); depth++) {
      Frame frame = frames.get(depth);
      int d = depth;
      if (others.stream()
          .noneMatch(o -> d < o.size() && Objects.equals(o.get(d).type(), frame.type()))) {
        return "  via "
            + Escaping.terminal(frame.display())
            + " ("
            + (frame.type() == null ? "of no recorded type" : Escaping.terminal(frame.type()))
            + ")";
      }
    }
    return "  (the same frames)";
  }

  private static String describe(Site site) {
    Attribution a = site.attribution();
    if (a == null) {
      return Escaping.terminal(site.key());
    }
    Culprit c = a.culprit();
    return Escaping.terminal(c.qualifiedMethod())
        + "  ("
        + c.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')
        + ", "
        + c.owner().name().toLowerCase(Locale.ROOT)
        + (c.artifact() != null ? ", " + Escaping.terminal(c.artifact().display()) : "")
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
        s.append("  waited in   ").append(Escaping.terminal(a.waitedAt().display())).append('\n');
      }
      if (a.calledFrom() != null) {
        s.append("  called from ").append(Escaping.terminal(a.calledFrom().display())).append('\n');
      }
      if (a.culprit().detail() != null) {
        s.append("  note        ").append(Escaping.terminal(a.culprit().detail())).append('\n');
      }
    }
    s.append("  stack (innermost first):\n");
    List<Frame> frames = site.stack().frames();
    int holder = a == null ? -1 : a.culprit().frameIndex();
    for (int i = 0; i < frames.size(); i++) {
      s.append(i == holder ? "  > at " : "    at ")
          .append(Escaping.terminal(frames.get(i).display()))
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
    if (words.get(1).equals(dev.vtscope.recording.RecordingInputs.STDIN)) {
      throw new IllegalArgumentException(
          "compare needs a recording's file: standard input (-) holds the commands");
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
    String formats = String.join(", ", SAVED_FORMATS.stream().map(ReportFormat::label).toList());
    if (words.size() < 3) {
      throw new IllegalArgumentException(
          "save takes a format (" + formats + ") and a file, e.g. save html vt.html");
    }
    ReportFormat format = ReportFormat.among(SAVED_FORMATS, words.get(1));
    if (format == null) {
      throw new IllegalArgumentException(
          "save takes a format (" + formats + "), not '" + words.get(1) + "'");
    }
    ReportRenderer renderer = format.renderer(TextStyle.PLAIN, TextStyle.PLAIN.topSites());
    Path file = Path.of(words.get(2));
    if (OutputOptions.isOneOf(file, RecordingInputOptions.files(inputs))) {
      throw new IllegalArgumentException(file + " is a recording being read: choose another file");
    }
    return write(words.get(1), file, out -> renderer.render(analysis, advice, out));
  }

  /** Writes a report to {@code file}, or shows it for {@code -}, and says so. */
  private static String write(
      String format, Path file, java.util.function.Consumer<PrintWriter> report) {
    java.io.StringWriter shown = new java.io.StringWriter();
    try {
      OutputFile.writeText(file, new PrintWriter(shown), report::accept);
    } catch (ExitException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    // save json - shows the report, as -o - prints it
    return OutputFile.isStandardOutput(file)
        ? shown.toString()
        : "saved " + format + " to " + file + "\n";
  }

  // ---------------------------------------------------------------- thread dumps

  /** The waits, most telling first: the last dump's groups, or a series' trends. */
  private List<WaitKey> waitKeys() {
    return dumps.isSeries()
        ? dumps.series().groups().stream().map(WaitSeries.Trend::key).toList()
        : dumps.last().groups().stream().map(WaitGroup::key).toList();
  }

  /** The threads that wait so, of the latest dump that has them, in its order. */
  private List<DumpedThread> threadsOf(WaitKey key) {
    for (int i = members.size() - 1; i >= 0; i--) {
      if (members.get(i) == null) {
        members.set(i, DumpAnalyzer.members(dumps, i, appPackages));
      }
      List<DumpedThread> threads = members.get(i).get(key);
      if (threads != null) {
        return threads;
      }
    }
    return List.of();
  }

  private String waitsCommand(List<String> words) {
    WaitKind kind = null;
    String filter = null;
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i).toLowerCase(Locale.ROOT);
      if (w.equals("filter")) {
        if (i + 1 == words.size()) {
          throw new IllegalArgumentException(
              "waits filter needs the TEXT to look for, e.g. waits filter worker");
        }
        filter = words.get(++i);
        continue;
      }
      WaitKind k = null;
      for (WaitKind candidate : WaitKind.values()) {
        if (candidate.id().equals(w)) {
          k = candidate;
        }
      }
      if (k == null) {
        throw new IllegalArgumentException(
            "waits takes a kind ("
                + String.join(
                    ", ", java.util.Arrays.stream(WaitKind.values()).map(WaitKind::id).toList())
                + ") and filter TEXT, not '"
                + words.get(i)
                + "'");
      }
      kind = k;
    }
    WaitKind keep = kind;
    String text = filter == null ? null : filter.toLowerCase(Locale.ROOT);
    List<WaitKey> all = waitKeys();
    waitsListed =
        all.stream()
            .filter(k -> keep == null || k.kind() == keep)
            .filter(k -> text == null || waitMatches(k, text))
            .toList();
    if (waitsListed.isEmpty()) {
      return all.isEmpty()
          ? "no wait: the dump lists no threads\n"
          : "no wait matches (of " + count(all.size(), "wait") + "; 'waits' lists them)\n";
    }
    StringBuilder s = new StringBuilder();
    int i = 1;
    for (WaitKey key : waitsListed) {
      s.append(String.format(Locale.ROOT, "%3d  %s%n", i++, waitRow(key)));
    }
    return s.toString();
  }

  /**
   * Whether {@code text} (lower case) is part of what the threads wait for and where, or of one of
   * their names as the lists show them.
   */
  private boolean waitMatches(WaitKey key, String text) {
    if (DumpReport.what(dumps.latestGroup(key)).toLowerCase(Locale.ROOT).contains(text)) {
      return true;
    }
    return threadsOf(key).stream()
        .anyMatch(t -> Escaping.terminal(t.name()).toLowerCase(Locale.ROOT).contains(text));
  }

  /** A wait as a row: its threads (in each dump, of a series), what they wait for, where. */
  private String waitRow(WaitKey key) {
    WaitGroup g = dumps.latestGroup(key);
    if (!dumps.isSeries()) {
      return DumpReport.line(g);
    }
    WaitSeries.Trend t = trend(key);
    return String.join(" → ", t.threads().stream().map(String::valueOf).toList())
        + (t.stuck() ? "  stuck  " : "  ")
        + DumpReport.what(g);
  }

  private WaitSeries.Trend trend(WaitKey key) {
    return dumps.series().groups().stream()
        .filter(t -> t.key().equals(key))
        .findFirst()
        .orElseThrow();
  }

  /** Whether {@code wait N all} asks for every thread; another third word is refused. */
  private static boolean every(List<String> words) {
    if (words.size() < 3) {
      return false;
    }
    if (!words.get(2).equalsIgnoreCase("all")) {
      throw new IllegalArgumentException(
          "wait N takes 'all' after the number, not '" + Escaping.terminal(words.get(2)) + "'");
    }
    return true;
  }

  private String waitDetail(int n, boolean every) {
    WaitKey key = waitsListed.get(n - 1);
    WaitGroup g = dumps.latestGroup(key);
    StringBuilder s = new StringBuilder(waitRow(key)).append('\n');
    if (dumps.isSeries()) {
      WaitSeries.Trend t = trend(key);
      int now = t.threads().get(t.threads().size() - 1);
      s.append("  in each dump ")
          .append(String.join(" → ", t.threads().stream().map(String::valueOf).toList()))
          .append(": ")
          .append(
              t.stuck()
                  ? "stuck, " + count(t.persistent(), "thread") + " there in every dump"
                  : now > 0 ? t.arrived() + " of " + now + " new since the dump before" : "gone")
          .append('\n');
    }
    List<DumpedThread> threads = threadsOf(key);
    s.append("  threads")
        .append(dumps.isSeries() ? " (of the last dump that has them)" : "")
        .append(":\n");
    int shown = every ? threads.size() : Math.min(threads.size(), THREADS_SHOWN);
    for (DumpedThread t : threads.subList(0, shown)) {
      s.append("    #")
          .append(t.tid())
          .append(" \"")
          .append(Escaping.terminal(t.name()))
          .append("\"")
          .append(t.isVirtual() ? "  virtual" : "")
          .append('\n');
    }
    if (shown < threads.size()) {
      s.append("    … ")
          .append(threads.size() - shown)
          .append(" more ('wait ")
          .append(n)
          .append(" all' names every one, 'waits filter NAME' finds one)\n");
    }
    List<Frame> frames = g.example() == null ? List.of() : g.example().frames();
    if (frames.isEmpty()) {
      s.append("  no stack: the dump gives none for these threads\n");
      return s.toString();
    }
    int entry = g.entry() == null ? -1 : frames.indexOf(g.entry());
    int site = g.site() == null ? -1 : frames.indexOf(g.site());
    s.append("  example stack (innermost first):\n");
    for (int i = 0; i < frames.size(); i++) {
      s.append(i == site ? "  > at " : "    at ")
          .append(Escaping.terminal(frames.get(i).display()))
          .append(i == entry ? "  <- waits here" : "")
          .append(i == site ? "  <- the application's frame" : "")
          .append('\n');
    }
    return s.toString();
  }

  private String saveDumps(List<String> words) {
    String formats =
        String.join(", ", SAVED_DUMP_FORMATS.stream().map(ReportFormat::label).toList());
    if (words.size() < 3) {
      throw new IllegalArgumentException(
          "save takes a format (" + formats + ") and a file, e.g. save html waits.html");
    }
    ReportFormat format = ReportFormat.among(SAVED_DUMP_FORMATS, words.get(1));
    if (format == null) {
      throw new IllegalArgumentException(
          "save takes a format of thread dumps (" + formats + "), not '" + words.get(1) + "'");
    }
    Path file = Path.of(words.get(2));
    if (OutputOptions.isOneOf(file, dumpFiles)) {
      throw new IllegalArgumentException(file + " is a dump being read: choose another file");
    }
    return write(
        words.get(1),
        file,
        out ->
            format
                .renderer(TextStyle.PLAIN, TextStyle.PLAIN.topSites())
                .render(new Report.DumpsAnalyzed(dumps, advice), out));
  }

  /**
   * Completes commands, their words, site and finding numbers, frame names after filter and file
   * names after compare and save.
   */
  private Completer completer() {
    return (reader, line, candidates) -> {
      List<String> words = line.words();
      int at = line.wordIndex();
      if (at == 0) {
        names().forEach(name -> candidates.add(new Candidate(name)));
        return;
      }
      String command = words.get(0);
      String previous = at > 0 ? words.get(at - 1) : "";
      switch (command) {
        case "sites" -> {
          if (previous.equals("filter")) {
            for (Site s : sites("all")) {
              if (s.attribution() != null) {
                // as the lists show them: a name is never sent to the terminal raw
                Culprit c = s.attribution().culprit();
                candidates.add(new Candidate(Escaping.terminal(c.className())));
                candidates.add(new Candidate(Escaping.terminal(c.qualifiedMethod())));
              }
            }
          } else if (!previous.equals("min")) {
            for (String w : SECTIONS) {
              candidates.add(new Candidate(w));
            }
            candidates.add(new Candidate("filter"));
            candidates.add(new Candidate("min"));
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
        case "waits" -> {
          if (!previous.equals("filter")) {
            for (WaitKind kind : WaitKind.values()) {
              candidates.add(new Candidate(kind.id()));
            }
            candidates.add(new Candidate("filter"));
          }
        }
        case "wait" -> {
          for (int i = 1; i <= waitsListed.size(); i++) {
            candidates.add(
                new Candidate(
                    String.valueOf(i),
                    String.valueOf(i),
                    null,
                    DumpReport.what(dumps.latestGroup(waitsListed.get(i - 1))),
                    null,
                    null,
                    true));
          }
        }
        case "save" -> {
          if (at == 1) {
            for (ReportFormat format : dumps == null ? SAVED_FORMATS : SAVED_DUMP_FORMATS) {
              candidates.add(new Candidate(format.label()));
            }
          } else if (at == 2) {
            fileNames(line.word(), false, candidates);
          }
        }
        case "compare" -> {
          if (at == 1) {
            fileNames(line.word(), true, candidates);
          }
        }
        default -> {
          // nothing more to offer
        }
      }
    };
  }

  /**
   * The files and folders that {@code typed} may begin: those of its folder, a folder ending in /
   * so that completion goes on into it. Hidden ones only once a dot is typed.
   *
   * @param recordings whether only recordings ({@code .jfr}) are offered, besides folders
   */
  static void fileNames(String typed, boolean recordings, List<Candidate> candidates) {
    int slash = typed.lastIndexOf('/');
    String folder = typed.substring(0, slash + 1);
    boolean hidden = typed.substring(slash + 1).startsWith(".");
    try (java.util.stream.Stream<Path> entries =
        Files.list(folder.isEmpty() ? Path.of(".") : Path.of(folder))) {
      entries.forEach(
          entry -> {
            String name = entry.getFileName().toString();
            if (name.startsWith(".") && !hidden) {
              return;
            }
            boolean isFolder = Files.isDirectory(entry);
            if (recordings && !isFolder && !name.endsWith(".jfr")) {
              return;
            }
            String shown = name + (isFolder ? "/" : "");
            candidates.add(new Candidate(folder + shown, shown, null, null, null, null, !isFolder));
          });
    } catch (IOException | java.io.UncheckedIOException | java.nio.file.InvalidPathException e) {
      // a folder that does not exist or cannot be listed offers nothing
    }
  }
}
