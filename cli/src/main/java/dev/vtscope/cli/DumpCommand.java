package dev.vtscope.cli;

import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.DumpAnalyzer;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.live.DumpSeries;
import dev.vtscope.live.LiveException;
import dev.vtscope.report.Escaping;
import dev.vtscope.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope dump}: a running JVM's thread dumps, taken and analysed as analyze does. */
final class DumpCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "dump",
          "Dumps a running JVM's threads and says what they wait for",
          "Takes a thread dump of a running JVM (vtscope jvms lists them): every thread, the"
              + " virtual threads too, as JSON (Thread.dump_to_file -format=json; its plain text"
              + " when the JSON fails) with Thread.print -l beside it, and reports what the threads"
              + " wait for, as 'vtscope analyze' reports a dump file. With --count it takes a"
              + " series, --every apart, and reports which waits persist (the same threads stuck"
              + " in every dump) and which move. --save keeps the dumps and the JVM's class path,"
              + " for 'vtscope analyze DIR' or another tool.",
          "Examples:",
          "  vtscope dump 4242",
          "  vtscope dump 4242 --count 3 --every 2s --save dumps/",
          "  vtscope dump 4242 --format json -o waits.json");

  private Long pid;

  private int count = 1;

  private String every;

  private Path save;

  private final OutputOptions output = new OutputOptions(spec, OutputOptions.DUMP_FORMATS);

  private final TextReportOptions text = new TextReportOptions(spec);

  private final AnalysisMixin analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.DUMPS);

  DumpCommand() {
    spec.addPositional(
        Specs.parameters(() -> pid, v -> pid = v)
            .paramLabel("PID")
            .arity("1")
            .type(Long.class)
            .description("The running JVM to dump; it must be of this user, on this machine.")
            .build());
    spec.addOption(
        Specs.option(() -> count, this::count, "--count")
            .paramLabel("N")
            .type(int.class)
            .description(
                "How many dumps to take, --every apart. Without it, one; and a second a second"
                    + " later when the first leaves a deadlock possible, which one dump cannot"
                    + " tell from a long wait.")
            .build());
    spec.addOption(
        Specs.option(() -> every, v -> every = v, "--every")
            .paramLabel("DURATION")
            .type(String.class)
            .description(
                "With --count 2 or more: the time from one dump's start to the next's, e.g. 2s"
                    + " (default: 2s); a dump that takes longer is followed at once.")
            .build());
    spec.addOption(
        Specs.option(() -> save, v -> save = v, "--save")
            .paramLabel("DIR")
            .type(Path.class)
            .description(
                "Keep the dumps in DIR, new or empty: per dump PID-N.json (PID-N.txt when the JSON"
                    + " failed) and PID-N.thread-print.txt, and PID.jvm.properties (the JVM's"
                    + " class path and scheduler parallelism and maxPoolSize), which 'vtscope"
                    + " analyze DIR' reads back as the same series.")
            .build());
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  private void count(Integer n) {
    if (n < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--count must be 1 or more, not " + n);
    }
    count = n;
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (every != null && count < 2) {
      throw new ExitException(
          ExitCode.USAGE, "--every goes with --count 2 or more: the time between dumps");
    }
    Duration apart = RecordCommand.parseDuration(every == null ? "2s" : every, "--every");
    AnalysisOptions options = analysisOptions.options();
    if (save != null) {
      refuseFilled(save);
    }
    LiveTarget.describe(pid);
    if (save != null) {
      make(save);
    }
    PrintWriter err = spec.commandLine().getErr();
    ProgressLine progress = ProgressLine.forDumps(count > 1 && !analysisOptions.quiet(), err);
    DumpSeries.Taken taken;
    try {
      taken =
          DumpSeries.take(
              pid,
              count,
              apart,
              save,
              (n, of) -> {
                if (progress != null) {
                  progress.dump(n, of);
                }
              });
    } catch (LiveException e) {
      throw ExitException.of(e);
    } finally {
      if (progress != null) {
        progress.done();
      }
    }
    ClassBytesSource.RecordedClassPath recorded =
        new ClassBytesSource.RecordedClassPath(taken.classPath(), taken.workingDirectory(), null);
    DumpAnalysis analysis =
        DumpAnalyzer.analyze(taken.dumps(), options, recorded, taken.scheduler());
    boolean countGiven = spec.commandLine().getParseResult().hasMatchedOption("--count");
    if (!countGiven && !taken.exited() && undecided(analysis)) {
      taken = followUp(taken, err);
      analysis = DumpAnalyzer.analyze(taken.dumps(), options, recorded, taken.scheduler());
    }
    for (DumpAnalyzer.NamedDump d : taken.dumps()) {
      for (String note : d.dump().notes()) {
        err.println("vtscope dump: " + Escaping.terminalLine(note));
      }
    }
    if (save != null) {
      err.println(
          "vtscope dump: kept in "
              + Escaping.terminalLine(save.toString())
              + " ('vtscope analyze "
              + Escaping.terminalLine(save.toString())
              + "' reads them again)");
    }
    err.flush();
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.DumpsAnalyzed(analysis, DumpAdvisor.advise(analysis)),
        spec.commandLine().getOut(),
        List.of());
    return taken.exited() ? ExitCode.TARGET_JVM.code() : ExitCode.OK.code();
  }

  /** How long after a single dump that leaves a deadlock undecided the second one is taken. */
  private static final Duration FOLLOW_UP = Duration.ofSeconds(1);

  /**
   * Whether a single dump leaves a deadlock or a pin undecided: a possible deadlock, which a second
   * dump tells from a long wait, or, before JDK 24, a virtual thread where a monitor is entered,
   * which a second dump tells waiting there (pinned) from running there.
   */
  private static boolean undecided(DumpAnalysis analysis) {
    return analysis.undecidedMonitorEntries() > 0
        || analysis.deadlocks().stream().anyMatch(d -> !d.proven() && !d.stuck());
  }

  /**
   * {@code taken} and a second dump {@link #FOLLOW_UP} later, said on {@code err}; {@code taken}
   * alone when the JVM cannot be dumped again (it exited), with a note saying so.
   */
  private DumpSeries.Taken followUp(DumpSeries.Taken taken, PrintWriter err)
      throws InterruptedException {
    err.println(
        "vtscope dump: one dump cannot tell a deadlock from a long wait; a second one follows in "
            + HumanDurations.format(FOLLOW_UP.toNanos()));
    err.flush();
    Thread.sleep(FOLLOW_UP.toMillis());
    try {
      DumpSeries.Taken more = DumpSeries.take(pid, 1, FOLLOW_UP, save, 2, (n, of) -> {});
      DumpAnalyzer.NamedDump first = taken.dumps().get(0);
      DumpSeries.Taken renamed =
          new DumpSeries.Taken(
              List.of(
                  save == null
                      ? new DumpAnalyzer.NamedDump("pid " + pid + ", dump 1", first.dump())
                      : first),
              false,
              taken.classPath(),
              taken.workingDirectory(),
              taken.scheduler());
      return renamed.then(more);
    } catch (LiveException e) {
      err.println(
          "vtscope dump: no second dump of pid "
              + pid
              + " ("
              + Escaping.terminalLine(e.getMessage())
              + "): the report is of the first alone");
      err.flush();
      return taken;
    }
  }

  /**
   * Refuses {@code --save}'s folder when it holds files already: {@code analyze DIR} reads a
   * folder's dumps as one series, which others would join.
   */
  private static void refuseFilled(Path folder) {
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> files = Files.list(folder)) {
      if (files.findAny().isPresent()) {
        throw new ExitException(
            ExitCode.USAGE,
            "--save "
                + folder
                + ": the folder is not empty; give a new or empty one, which 'vtscope analyze"
                + " DIR' then reads as this series alone");
      }
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE,
          "--save " + folder + ": cannot list the folder (" + e.getMessage() + ")",
          e);
    }
  }

  private static void make(Path folder) {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE,
          "--save " + folder + ": cannot make the folder (" + e.getMessage() + ")",
          e);
    }
  }
}
