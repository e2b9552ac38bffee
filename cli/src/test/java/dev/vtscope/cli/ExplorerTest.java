package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.TestRecordings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * vtscope explore: scripted through jline's terminal API (a dumb terminal over streams, as when
 * commands are piped in), and once for real in tmux, where tab completes.
 */
class ExplorerTest {

  @TempDir Path dir;

  private static String sample(String name) {
    return TestRecordings.repoRoot().resolve("samples").resolve(name).toString();
  }

  /** Runs the explorer over {@code recording} with {@code script} as the typed lines. */
  private static String explore(String recording, String script) throws Exception {
    List<RecordingInput> inputs = RecordingInputs.resolve(List.of(Path.of(recording)));
    CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create();
    AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.REPORT);
    new CommandLine(spec).setCaseInsensitiveEnumValuesAllowed(true).parseArgs();
    Analyzer analyzer = analysisOptions.analyzer(inputs, null);
    Analysis analysis = analysisOptions.analyze(analyzer, inputs);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Terminal terminal =
        TerminalBuilder.builder()
            .system(false)
            .dumb(true)
            .streams(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)), out)
            .build()) {
      new Explorer(analyzer, analysis, analysisOptions, inputs).run(terminal);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void findsTheWorstSiteAndItsFixInAFewCommands() throws Exception {
    Path saved = dir.resolve("report.md");
    String out =
        explore(
            sample("jdk21/pinning-synchronized.jfr"),
            "findings\nfinding 1\nsites pinned\nsite 1\nsites filter SharedLock min 1ms\n"
                + "group top-frame\nsites\nsave markdown "
                + saved
                + "\nsite 9\nsites bogus\nfindngs\nquit\n");
    assertThat(out)
        .contains("2 findings")
        .contains("[high  ] dev.vtscope.workloads.SharedLockPinning.withMonitor pins carriers")
        // finding 1 whole, with its fix
        .contains("Hold a java.util.concurrent.locks.ReentrantLock instead of the monitor")
        // site 1: the stack with the holder marked
        .contains(
            "  > at dev.vtscope.workloads.SharedLockPinning.withMonitor(SharedLockPinning.java:")
        .contains("<- holds the carrier")
        .contains("p50 ")
        .contains("first seen 20")
        .contains("grouped by top-frame:")
        .contains("saved markdown to " + saved)
        .contains("site 9: there are")
        .contains("sites takes a section")
        .contains("unknown command 'findngs'");
    assertThat(Files.readString(saved)).startsWith("## vtscope: virtual-thread report");
  }

  /**
   * Grouped by stack, two sites of one culprit that wait in the same frame are told apart by the
   * first frame their stacks do not share; grouped by reason, by the reason.
   */
  @Test
  void sitesOfOneCulpritReadDifferentlyWhenGroupedAnotherWay() throws Exception {
    String out =
        explore(
            sample("jdk25/native-pinning.jfr"), "group stack\nsites\ngroup reason\nsites\nquit\n");
    java.util.regex.Pattern row =
        java.util.regex.Pattern.compile(" \\d+ +\\S+ \\S+ +\\d+ events? +(.*)$");
    List<String> rows =
        out.lines().map(row::matcher).filter(Matcher::find).map(m -> m.group(1)).toList();
    assertThat(out).contains("grouped by stack: 2 sites");
    assertThat(rows).as(out).hasSize(3);
    assertThat(rows.subList(0, 2)).doesNotHaveDuplicates().allMatch(r -> r.contains("  via "));
    assertThat(rows.get(2)).contains("  reason Native or VM frame on stack");
  }

  @Test
  void comparesWithAnotherRecording() throws Exception {
    String out =
        explore(
            sample("jdk21/pinning-synchronized.jfr"),
            "compare " + sample("jdk21/pinning-reentrant-lock.jfr") + "\nquit\n");
    assertThat(out).contains("fixed  pinned").contains("2 fixed, 0 new");
  }

  /**
   * A team filters by its own package: a JDK culprit its code called into matches by the frame it
   * was called from, and by its stack, not only by the culprit's own class.
   */
  @Test
  void filterMatchesTheCallerAndTheStackNotOnlyTheCulprit() throws Exception {
    String out =
        explore(
            sample("jdk25/socket-roundtrip.jfr"),
            "sites filter dev.vtscope.workloads\nsites filter SocketRoundTrip.send\n"
                + "sites filter NioSocketImpl.connect\nsites filter Poller\n"
                + "sites filter com.acme\nquit\n");
    String poller = "sun.nio.ch.Poller.<clinit>  (class init wait, jdk)";
    assertThat(out.split("vtscope> ", -1))
        .satisfiesExactly(
            banner -> {},
            byPackage -> assertThat(byPackage).contains(poller),
            byCaller -> assertThat(byCaller).contains(poller),
            byStackFrame -> assertThat(byStackFrame).contains(poller),
            byCulprit -> assertThat(byCulprit).contains(poller),
            elsewhere -> assertThat(elsewhere).contains("no site matches").doesNotContain(poller),
            quit -> {});
  }

  /** Counts read right: one finding, one event, and a missing file named once. */
  @Test
  void countsAreSingularForOneAndAMissingFileIsNamedOnce() throws Exception {
    String out = explore(sample("jdk21/class-init.jfr"), "sites\ncompare nothere.jfr\nquit\n");
    assertThat(out)
        .contains("vtscope explore: 1 recording, 1 finding, 2 sites. 'help' lists the commands.")
        .contains("  1    99.2 ms       1 event   dev.vtscope.workloads.ClassInitPinning")
        .doesNotContain("nothere.jfr: nothere.jfr");
    // the terminal's mode switches aside, the answer to compare is one line that names it once
    assertThat(out.replaceAll("\u001b(\\[\\?[0-9]+[a-z]|[=>])", "").lines().map(String::strip))
        .contains("nothere.jfr: no such file or folder");
  }

  /** Runs {@code vtscope explore ARGS} in-process with {@code commands} on standard input. */
  private static Cli.Result piped(String commands, String... args) {
    java.io.InputStream stdin = System.in;
    System.setIn(new ByteArrayInputStream(commands.getBytes(StandardCharsets.UTF_8)));
    try {
      String[] all = new String[args.length + 1];
      all[0] = "explore";
      System.arraycopy(args, 0, all, 1, args.length);
      return Cli.run(all);
    } finally {
      System.setIn(stdin);
    }
  }

  /**
   * Commands from a pipe: answers alone on stdout, no prompt or terminal code; a refused command is
   * one line on stderr with its line number, the next lines still run, and the exit code is 2.
   */
  @Test
  void pipedCommandsAnswerWithoutPromptsAndARefusalExitsTwo() {
    String recording = sample("jdk21/pinning-synchronized.jfr");
    Cli.Result fine = piped("# the findings\nfindings\n\nsites pinned\nquit\n", recording);
    assertThat(fine.exitCode()).as(fine.err()).isZero();
    assertThat(fine.out())
        .startsWith("  1  [high  ] dev.vtscope.workloads.SharedLockPinning.withMonitor pins")
        .contains("200 events  dev.vtscope.workloads.SharedLockPinning.withMonitor")
        .doesNotContain("vtscope>")
        .doesNotContain("\u001b");
    assertThat(fine.err().lines())
        .containsExactly(
            "vtscope explore: 1 recording, 2 findings, 2 sites. 'help' lists the commands.");

    Cli.Result refused = piped("findngs\nsites pinned filter\nfindings\n", recording);
    assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(refused.out()).contains("[high  ]").doesNotContain("vtscope>");
    assertThat(refused.err().lines())
        .contains(
            "vtscope explore: line 1: unknown command 'findngs'; did you mean 'findings' or"
                + " 'finding'? ('help' lists the commands)",
            "vtscope explore: line 2: sites filter needs the TEXT to look for, e.g. sites filter"
                + " com.acme");
  }

  /**
   * A recording cannot come from standard input, which holds the commands: refused in one line that
   * says what to do instead, before anything is read.
   */
  @Test
  void aRecordingOnStandardInputIsRefused() throws Exception {
    byte[] recording = Files.readAllBytes(Path.of(sample("jdk21/pinning-synchronized.jfr")));
    java.io.InputStream stdin = System.in;
    System.setIn(new ByteArrayInputStream(recording));
    Cli.Result r;
    try {
      r = Cli.run("explore", "-");
    } finally {
      System.setIn(stdin);
    }
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err())
        .startsWith("vtscope explore: - (standard input) holds explore's commands")
        .contains("vtscope analyze -")
        .doesNotContain("Exception");
  }

  /**
   * A filter that hides every site says so when a site is asked for; quit leaves whatever follows
   * it; save writes every form analyze writes.
   */
  @Test
  void aFilterThatHidesTheSitesSaysSoAndQuitLeaves() throws Exception {
    Path metrics = dir.resolve("vt.prom");
    Cli.Result r =
        piped(
            "sites min 3s\nsite 1\nsites filter SharedLock\nsite 3\nsave openmetrics "
                + metrics
                + "\nquit now\nfindings\n",
            sample("jdk21/pinning-synchronized.jfr"));
    assertThat(r.err().lines())
        .contains(
            "vtscope explore: line 2: site 1: the last 'sites min 3s' listed none; 'sites' with"
                + " no filter lists them all",
            "vtscope explore: line 4: site 3: the last 'sites filter SharedLock' listed 2 sites"
                + " (numbers from 1); 'sites' with no filter lists them all")
        .noneMatch(line -> line.contains("quit"));
    assertThat(r.out())
        .contains("no site matches (of 2 sites; 'sites' lists them)")
        .contains("saved openmetrics to " + metrics)
        // nothing after quit ran
        .doesNotContain("[high  ]");
    assertThat(Files.readString(metrics)).contains("# TYPE jvm_threads_virtual_pinned_seconds");
  }

  /** A line is split into words as a shell splits it. */
  @Test
  void wordsAreSplitAsAShellSplitsThem() {
    assertThat(Explorer.words("  save  json \"a b.json\"\t"))
        .containsExactly("save", "json", "a b.json");
    assertThat(Explorer.words("compare 'it''s here/a \\ b.jfr'"))
        .containsExactly("compare", "its here/a \\ b.jfr");
    assertThat(Explorer.words("compare my\\ run.jfr \"say \\\"hi\\\" \\\\ \\n\""))
        .containsExactly("compare", "my run.jfr", "say \"hi\" \\ \\n");
    assertThat(Explorer.words("save json a\"b c\"d")).containsExactly("save", "json", "ab cd");
    assertThat(Explorer.words("\"\"")).containsExactly("");
    assertThat(Explorer.words("   ")).isEmpty();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Explorer.words("save json \"a b"))
        .hasMessage("the double quote is not closed: save json \"a b");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Explorer.words("compare a\\"))
        .hasMessageStartingWith("a backslash ends the line");
  }

  /**
   * A file name with a space is quoted for save and compare; a word left over is refused, never
   * ignored; save to - shows the report.
   */
  @Test
  void quotedNamesAreOneWordAndExtraWordsAreRefused() throws Exception {
    String recording = sample("jdk21/pinning-synchronized.jfr");
    Path spaced = Files.copy(Path.of(recording), dir.resolve("the fixed run.jfr"));
    Path saved = dir.resolve("my report.json");
    Cli.Result r =
        piped(
            "save json \""
                + saved
                + "\"\ncompare '"
                + spaced
                + "'\nfindings now\nsave json "
                + dir.resolve("a.json")
                + " extra\nsave json -\n",
            recording);
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(Files.readString(saved)).startsWith("{");
    assertThat(r.out()).contains("saved json to " + saved).contains("0 new");
    assertThat(dir.resolve("a.json")).doesNotExist();
    assertThat(r.err().lines())
        .containsExactly(
            "vtscope explore: 1 recording, 2 findings, 2 sites. 'help' lists the commands.",
            "vtscope explore: line 3: 'now' is one word too many: findings",
            "vtscope explore: line 4: 'extra' is one word too many: save"
                + " text|json|markdown|html|openmetrics|otlp-json FILE (quote a name with spaces: \"my"
                + " run.jfr\")");
    // save json - shows the document, after the answers before it
    String shown = r.out().substring(r.out().lastIndexOf("\n{") + 1);
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(shown).has("findings"))
        .isTrue();
  }

  /** The list of commands fits 80 columns, and says what min compares. */
  @Test
  void helpFitsEightyColumns() {
    Cli.Result r = piped("help\n", sample("jdk21/class-init.jfr"));
    assertThat(r.out().lines()).allMatch(line -> line.length() <= 80, "fits 80 columns");
    assertThat(r.out())
        .contains("save text|json|markdown|html|openmetrics|otlp-json FILE")
        .contains("whose total time is 10 ms or more");
  }

  /**
   * After save, Tab offers the files and folders of the folder typed; after compare, its recordings
   * and folders.
   */
  @Test
  void fileNamesAreOffered() throws Exception {
    Files.createDirectories(dir.resolve("after"));
    Files.writeString(dir.resolve("after.jfr"), "");
    Files.writeString(dir.resolve("after.json"), "");
    Files.writeString(dir.resolve(".hidden"), "");
    List<org.jline.reader.Candidate> candidates = new java.util.ArrayList<>();
    Explorer.fileNames(dir + "/af", false, candidates);
    assertThat(candidates)
        .extracting(org.jline.reader.Candidate::value)
        .containsExactlyInAnyOrder(dir + "/after/", dir + "/after.jfr", dir + "/after.json");
    // compare is offered recordings and folders
    List<org.jline.reader.Candidate> recordings = new java.util.ArrayList<>();
    Explorer.fileNames(dir + "/", true, recordings);
    assertThat(recordings)
        .extracting(org.jline.reader.Candidate::value)
        .containsExactlyInAnyOrder(dir + "/after/", dir + "/after.jfr");
    // a folder's name leaves the word open, to go on into it
    assertThat(candidates).filteredOn(c -> c.value().endsWith("/")).allMatch(c -> !c.complete());
  }

  /**
   * A real terminal in tmux: tab completes a command, a section and a file name, and the output
   * shows.
   */
  @Test
  void inARealTerminalTabCompletes() throws Exception {
    String session = "vtscope-explore-" + ProcessHandle.current().pid();
    // the classes under test, as the launcher would run them from the jar: the jar is made after
    // the tests, and building it here would rewrite the classes the suite's JVMs are loading
    String vtscope =
        String.join(
            " ",
            quoted(TestRecordings.currentJava().toString()),
            String.join(" ", ChildJvms.vtscope()),
            "-cp",
            quoted(System.getProperty("java.class.path")),
            VtScope.class.getName());
    run(
        "tmux",
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "160",
        "-y",
        "50",
        vtscope + " explore " + quoted(sample("jdk21/pinning-synchronized.jfr")));
    try {
      String pane = waitFor(session, "vtscope>");
      assertThat(pane).contains("2 findings");
      run("tmux", "send-keys", "-t", session, "sit", "Tab");
      waitFor(session, "vtscope> site");
      run("tmux", "send-keys", "-t", session, "s", "Space", "pinn", "Tab", "Enter");
      pane = waitFor(session, "events  dev.vtscope.workloads.SharedLockPinning.withMonitor");
      run("tmux", "send-keys", "-t", session, "site 1", "Enter");
      pane = waitFor(session, "<- holds the carrier");
      assertThat(pane).contains("> at dev.vtscope.workloads.SharedLockPinning.withMonitor");
      // a file name after compare
      String partial = sample("jdk21/pinning-reentrant");
      run("tmux", "send-keys", "-t", session, "compare " + partial, "Tab");
      waitFor(session, "compare " + sample("jdk21/pinning-reentrant-lock.jfr"));
      run("tmux", "send-keys", "-t", session, "Enter");
      waitFor(session, "2 fixed, 0 new");
      run("tmux", "send-keys", "-t", session, "quit", "Enter");
    } finally {
      new ProcessBuilder("tmux", "kill-session", "-t", session).start().waitFor();
    }
  }

  private static String dump(String path) {
    return dev.vtscope.threaddump.Samples.root().resolve(path).toString();
  }

  /** A wait of hundreds of threads names a screenful of them, and all of them when asked. */
  @Test
  void aLargeWaitNamesAScreenfulOfItsThreadsUnlessAskedForAll() {
    String fanout =
        dev.vtscope.testing.TestRecordings.repoRoot()
            .resolve("samples/jdk25/dumps/stuck-fanout.dump.json")
            .toString();
    Cli.Result some = piped("wait 1\n", fanout);
    Cli.Result all = piped("wait 1 all\n", fanout);
    Cli.Result bad = piped("wait 1 every\n", fanout);

    assertThat(some.exitCode()).as(some.err()).isZero();
    long named = some.out().lines().filter(l -> l.matches(" {4}#\\d+ \".*")).count();
    assertThat(named).isEqualTo(50);
    assertThat(some.out()).containsPattern(" {4}… \\d+ more \\('wait 1 all' names every one");
    long every = all.out().lines().filter(l -> l.matches(" {4}#\\d+ \".*")).count();
    assertThat(every).isGreaterThan(50);
    assertThat(all.out()).doesNotContain("more ('wait 1 all'");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(bad.err()).contains("wait N takes 'all' after the number, not 'every'");
  }

  /**
   * Over a thread dump the shell lists its waits: a wait opens on every thread's name and the
   * example stack, a kind or a thread's name narrows the list, and save writes the dump report.
   */
  @Test
  void aDumpsWaitsAreListedOpenedNarrowedAndSaved() throws Exception {
    String carriers = dump("jdk25/class-init-carriers/dump-to-file.json");
    Path html = dir.resolve("waits.html");
    Cli.Result r =
        piped(
            "waits\nwait 1\nwaits not-started\nwait 1\nwaits filter vt-user-5\nwaits sleep\n"
                + "save html "
                + html
                + "\nsave json -\n",
            carriers);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err().lines())
        .containsExactly(
            "vtscope explore: 1 thread dump, 1 finding, 6 waits. 'help' lists the commands.");
    assertThat(r.out())
        .contains(
            "  1  1 virtual thread parks in CountDownLatch.await at"
                + " ClassInitDeadlock$Gate.<clinit>:38")
        .contains("    #17 \"vt-init\"  virtual\n")
        .contains(
            "at java.util.concurrent.CountDownLatch.await(CountDownLatch.java:230)  <- waits here")
        .contains(
            "  > at ClassInitDeadlock$Gate.<clinit>(ClassInitDeadlock.java:38)  <- the application's frame")
        .contains("  1  8 virtual threads have not started\n")
        .contains("no wait matches (of 6 waits; 'waits' lists them)")
        .contains("saved html to " + html)
        .contains("\"schemaVersion\"");
    // the group names three; the wait opened names all eight, and the filter finds the fifth
    for (String name : List.of("vt-user-1", "vt-user-4", "vt-user-7", "vt-releaser")) {
      assertThat(r.out()).contains("\"" + name + "\"  virtual");
    }
    assertThat(r.out()).containsPattern("(?m)^  1  8 virtual threads have not started\n(?!  2)");
    assertThat(Files.readString(html)).contains("\"kind\":\"dumps\"");

    Cli.Result refused = piped("sites\nwaits bogus\nsave openmetrics x.txt\nwait 99\n", carriers);
    assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(refused.err().lines())
        .contains(
            "vtscope explore: line 1: 'sites' is for recordings: of thread dumps, 'waits' lists"
                + " what the threads wait for and 'wait N' opens one",
            "vtscope explore: line 3: save takes a format of thread dumps (text, json, markdown,"
                + " html), not 'openmetrics'",
            "vtscope explore: line 4: wait 99: there are 6 (numbers from 1)")
        .anyMatch(l -> l.startsWith("vtscope explore: line 2: waits takes a kind (monitor-enter,"));
    assertThat(Files.exists(Path.of("x.txt"))).isFalse();
  }

  /** Over a series, each wait shows its threads in each dump, and whether they are stuck. */
  @Test
  void aSeriesOfDumpsShowsEachWaitOverTheDumps() {
    String series = "jdk25/semaphore-series/";
    Cli.Result r =
        piped(
            "waits synchronizer\nwait 1\n",
            dump(series + "dump-1.json"),
            dump(series + "dump-2.json"),
            dump(series + "dump-3.json"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).startsWith("vtscope explore: 3 thread dumps of one JVM, ");
    assertThat(r.out())
        .contains("  1  20 → 20 → 20  stuck  virtual threads park in Semaphore.acquire")
        .contains("  in each dump 20 → 20 → 20: stuck, 20 threads there in every dump")
        .contains("  threads (of the last dump that has them):");
    assertThat(r.out().lines().filter(l -> l.matches("    #\\d+ \".*\"  virtual"))).hasSize(20);
  }

  /** A thread named with a terminal's escape sequence shows it written out, never raw. */
  @Test
  void aDumpsHostileThreadNamesAreEscapedInTheShell() {
    Cli.Result r = piped("waits filter vt-\nwait 1\n", dump("jdk25/escape-name/dump-to-file.txt"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).doesNotContain("\u001b").contains("\"vt-\\u001B[31mred\"");
  }

  /** In a real terminal over a dump, Tab completes the waits' kinds and a wait opens. */
  @Test
  void inARealTerminalTabCompletesAWaitsKind() throws Exception {
    String session = "vtscope-explore-dump-" + ProcessHandle.current().pid();
    String vtscope =
        String.join(
            " ",
            quoted(TestRecordings.currentJava().toString()),
            String.join(" ", ChildJvms.vtscope()),
            "-cp",
            quoted(System.getProperty("java.class.path")),
            VtScope.class.getName());
    run(
        "tmux",
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "160",
        "-y",
        "50",
        vtscope + " explore " + quoted(dump("jdk25/lock-cycle/dump-to-file.json")));
    try {
      String pane = waitFor(session, "vtscope>");
      assertThat(pane).contains("1 thread dump");
      run("tmux", "send-keys", "-t", session, "waits lo", "Tab");
      waitFor(session, "vtscope> waits lock");
      run("tmux", "send-keys", "-t", session, "Enter");
      waitFor(session, "  2  1 virtual thread parks in ReentrantLock.lock");
      run("tmux", "send-keys", "-t", session, "wait 2", "Enter");
      pane = waitFor(session, "<- the application's frame");
      assertThat(pane).contains("> at LockCycle.cycle(LockCycle.java:");
      run("tmux", "send-keys", "-t", session, "quit", "Enter");
    } finally {
      new ProcessBuilder("tmux", "kill-session", "-t", session).start().waitFor();
    }
  }

  /** A word for the shell tmux runs a command with. */
  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    return out;
  }

  private static String waitFor(String session, String text) throws Exception {
    return Eventually.value(
        "'" + text + "' shows in tmux",
        () -> run("tmux", "capture-pane", "-p", "-t", session, "-S", "-50"),
        pane -> pane.contains(text));
  }
}
