package dev.vtscope.cli;

import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.DumpAnalyzer;
import dev.vtscope.analysis.DumpAnalyzer.NamedDump;
import dev.vtscope.analysis.SchedulerSettings;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.live.DumpSeries;
import dev.vtscope.recording.CpuFacts;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingFiles;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.recording.ThreadDumpEvent;
import dev.vtscope.report.Escaping;
import dev.vtscope.threaddump.DumpFormat;
import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.NotAThreadDumpException;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadDumpFiles;
import dev.vtscope.threaddump.ThreadPrint;
import dev.vtscope.waits.SchedulerLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The thread dumps among the paths given to {@code analyze}: files that start as one ({@link
 * ThreadDumpFiles}), and folders that hold no {@code .jfr} file but dumps. Recordings and dumps are
 * not mixed in one call: they answer different questions, and a report of both would mean neither.
 */
final class DumpInputs {

  /**
   * How far apart, by their files' times, a {@code Thread.print} and a JSON or plain-text dump of
   * one pid may be to be read as one moment: {@code Thread.print} names no time zone, {@code
   * jstack} no pid either.
   */
  private static final long SAME_MOMENT_MILLIS = 60_000;

  private DumpInputs() {}

  /** Whether {@code paths} name thread dumps rather than recordings; refuses a mix. */
  static boolean areDumps(List<Path> paths, boolean recursive) {
    Path dump = null;
    Path recording = null;
    for (Path p : paths) {
      if (isDump(p, recursive)) {
        dump = dump == null ? p : dump;
      } else {
        recording = recording == null ? p : recording;
      }
    }
    if (dump != null && recording != null) {
      throw new ExitException(
          ExitCode.USAGE,
          dump
              + " is a thread dump and "
              + recording
              + " a recording: analyze them in separate calls");
    }
    return dump != null;
  }

  private static boolean isDump(Path p, boolean recursive) {
    if (p.toString().equals(RecordingInputs.STDIN) || !Files.exists(p)) {
      return false; // the recordings' resolution says what is wrong with it
    }
    if (Files.isDirectory(p)) {
      List<Path> files = filesOf(p, recursive);
      return files.stream().noneMatch(DumpInputs::isRecordingName)
          && files.stream().anyMatch(DumpInputs::startsAsDump);
    }
    return Files.isRegularFile(p) && !isRecordingName(p) && startsAsDump(p);
  }

  private static boolean isRecordingName(Path p) {
    return p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".jfr");
  }

  private static boolean startsAsDump(Path p) {
    try {
      return ThreadDumpFiles.startsAsDump(p);
    } catch (IOException e) {
      return false; // the recordings' resolution says why it cannot be read
    }
  }

  private static List<Path> filesOf(Path folder, boolean recursive) {
    try (Stream<Path> walk = Files.walk(folder, recursive ? Integer.MAX_VALUE : 1)) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, folder + ": cannot list the folder (" + e.getMessage() + ")");
    }
  }

  /**
   * The dumps {@code paths} name, read; a {@code Thread.print} completes the JSON or plain-text
   * dump of its pid taken at about the same time ({@link DumpMerge}).
   *
   * @param skipped where what a folder holds besides dumps is said, one line each
   * @param jvm where the JVM's class path, working folder and scheduler kept beside a folder's
   *     dumps ({@link DumpSeries#JVM_PROPERTIES}) are put
   */
  static List<NamedDump> read(
      List<Path> paths, boolean recursive, List<String> skipped, java.util.Properties jvm) {
    List<Read> read = new ArrayList<>();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        for (Path f : filesOf(p, recursive)) {
          if (f.getFileName().toString().endsWith(DumpSeries.JVM_PROPERTIES)) {
            try (var in = Files.newBufferedReader(f, java.nio.charset.StandardCharsets.UTF_8)) {
              jvm.load(in);
            } catch (IOException | IllegalArgumentException e) {
              skipped.add(f + ": skipped, unreadable (" + e.getMessage() + ")");
            }
            continue;
          }
          try {
            read.add(new Read(f, ThreadDumpFiles.read(f), modified(f)));
          } catch (NotAThreadDumpException e) {
            skipped.add(f + ": skipped, " + e.getMessage());
          } catch (IOException e) {
            skipped.add(f + ": skipped, unreadable (" + e.getMessage() + ")");
          }
        }
      } else {
        read.add(readFile(p));
      }
    }
    if (read.isEmpty()) {
      throw new ExitException(
          ExitCode.NOT_A_RECORDING, paths.get(0) + ": the folder holds no thread dumps");
    }
    return merged(read);
  }

  /**
   * The analysis of the dumps {@code paths} name, as {@code analyze}, {@code check} and {@code
   * explore} all read them: dumps of several JVMs refused, what a folder holds besides dumps said
   * on {@code err}, one line each.
   *
   * @param command the command reading them, which starts each line it says
   * @param options the application's packages and where its class files are
   */
  static DumpAnalysis analyze(
      String command,
      List<Path> paths,
      boolean recursive,
      AnalysisOptions options,
      java.io.PrintWriter err) {
    List<String> skipped = new ArrayList<>();
    java.util.Properties jvm = new java.util.Properties();
    List<NamedDump> dumps = read(paths, recursive, skipped, jvm);
    String notOne = DumpAnalyzer.whyNotOneJvm(dumps);
    if (notOne != null) {
      throw new ExitException(
          ExitCode.USAGE,
          notOne + ": a series is of one JVM; " + command + " each JVM's dumps apart");
    }
    for (String line : skipped) {
      err.println("vtscope " + command + ": " + Escaping.terminalLine(line));
    }
    String classPath = jvm.getProperty("java.class.path");
    return DumpAnalyzer.analyze(
        dumps,
        options,
        classPath == null
            ? null
            : new ClassBytesSource.RecordedClassPath(classPath, jvm.getProperty("user.dir"), null),
        DumpSeries.keptScheduler(jvm));
  }

  /**
   * The analysis of the thread dumps inside recordings ({@code jdk.ThreadDump} events, {@code
   * Thread.print} texts each taken when its event started), oldest first, as one JVM's series: what
   * {@code analyze --thread-dumps} reports. Recordings of several JVMs are refused, as dumps of
   * several JVMs are; a recording without such events too.
   */
  static DumpAnalysis analyzeRecorded(
      String command, List<RecordingInput> inputs, ReaderKind reader, AnalysisOptions options) {
    List<NamedDump> dumps = new ArrayList<>();
    java.util.Set<String> jvms = new java.util.LinkedHashSet<>();
    String classPath = null;
    String workingDirectory = null;
    SchedulerLimits limits = SchedulerLimits.UNKNOWN;
    for (RecordingInput input : inputs) {
      RecordedDumps found = new RecordedDumps();
      for (Path file : input.files()) {
        try {
          RecordingFiles.read(reader.create(), file, found);
        } catch (RecordingFiles.UnreadableException e) {
          throw new ExitException(
              e.io() ? ExitCode.INPUT_UNREADABLE : ExitCode.NOT_A_RECORDING, e.getMessage());
        }
      }
      if (found.dumps.isEmpty()) {
        throw new ExitException(
            ExitCode.INPUT_UNREADABLE,
            input.name()
                + " holds no jdk.ThreadDump event: record with it on (vtscope record does, once a"
                + " chunk; e.g. -XX:StartFlightRecording:jdk.ThreadDump#period=10s)");
      }
      if (found.jvm != null) {
        jvms.add("pid " + found.jvm.pid() + " " + found.jvm.javaVersion());
      }
      classPath = classPath == null ? found.properties.get("java.class.path") : classPath;
      workingDirectory =
          workingDirectory == null ? found.properties.get("user.dir") : workingDirectory;
      if (limits.equals(SchedulerLimits.UNKNOWN)
          && (!found.properties.isEmpty() || found.cpus > 0)) {
        // the scheduler's limits, derived from the recorded properties and CPUs as the JVM did
        limits = SchedulerSettings.ofJvm(found.properties, found.cpus).limits();
      }
      for (ThreadDumpEvent e : found.dumps) {
        Instant at = Instant.ofEpochSecond(0, e.startNanos());
        ThreadDump d = ThreadPrint.parse(e.text()).withTakenAt(at);
        dumps.add(
            new NamedDump(
                input.name() + " at " + at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                found.jvm == null ? d : d.with(found.jvm.pid(), d.threads())));
      }
    }
    if (jvms.size() > 1) {
      throw new ExitException(
          ExitCode.USAGE,
          "the recordings are of "
              + jvms.size()
              + " JVMs ("
              + String.join(", ", jvms)
              + "): a series is of one JVM; "
              + command
              + " each JVM's recordings apart");
    }
    return DumpAnalyzer.analyze(
        dumps,
        options,
        classPath == null
            ? null
            : new ClassBytesSource.RecordedClassPath(classPath, workingDirectory, null),
        limits);
  }

  /** What a recording says of its thread dumps and its JVM. */
  private static final class RecordedDumps implements RecordingListener {
    final List<ThreadDumpEvent> dumps = new ArrayList<>();
    final java.util.Map<String, String> properties = new java.util.HashMap<>();
    JvmFacts jvm;
    int cpus;

    @Override
    public void threadDump(ThreadDumpEvent event) {
      dumps.add(event);
    }

    @Override
    public void jvm(JvmFacts facts) {
      jvm = facts;
    }

    @Override
    public void systemProperty(String key, String value) {
      properties.putIfAbsent(key, value);
    }

    @Override
    public void cpu(CpuFacts facts) {
      // the container's limit first, as the JVM counts its processors
      int seen = facts.containerCpus() > 0 ? facts.containerCpus() : facts.hardwareThreads();
      cpus = cpus > 0 ? cpus : seen;
    }
  }

  private record Read(Path file, ThreadDump dump, FileTime modified) {}

  private static Read readFile(Path f) {
    try {
      return new Read(f, ThreadDumpFiles.read(f), modified(f));
    } catch (NotAThreadDumpException e) {
      throw new ExitException(ExitCode.NOT_A_RECORDING, f + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, f + ": cannot be read (" + e.getMessage() + ")");
    }
  }

  private static FileTime modified(Path f) {
    try {
      return Files.getLastModifiedTime(f);
    } catch (IOException e) {
      return null;
    }
  }

  /** Each {@code Thread.print} merged into the fuller dump of its pid nearest in time, if any. */
  private static List<NamedDump> merged(List<Read> read) {
    List<Read> full = new ArrayList<>();
    List<Read> printed = new ArrayList<>();
    for (Read r : read) {
      (r.dump().format() == DumpFormat.THREAD_PRINT ? printed : full).add(r);
    }
    List<NamedDump> dumps = new ArrayList<>();
    List<Read> unmatched = new ArrayList<>(printed);
    for (Read f : full) {
      Read partner =
          unmatched.stream()
              // jstack names no pid: its time alone pairs it
              .filter(p -> p.dump().pid() < 0 || p.dump().pid() == f.dump().pid())
              .filter(p -> apart(p, f) <= SAME_MOMENT_MILLIS)
              .min(Comparator.comparingLong(p -> apart(p, f)))
              .orElse(null);
      if (partner == null) {
        dumps.add(new NamedDump(f.file().toString(), f.dump()));
      } else {
        unmatched.remove(partner);
        dumps.add(
            new NamedDump(
                f.file() + " + " + partner.file(), DumpMerge.of(f.dump(), partner.dump())));
      }
    }
    for (Read p : unmatched) {
      dumps.add(new NamedDump(p.file().toString(), p.dump()));
    }
    return dumps;
  }

  private static long apart(Read a, Read b) {
    return a.modified() == null || b.modified() == null
        ? Long.MAX_VALUE
        : Math.abs(a.modified().toMillis() - b.modified().toMillis());
  }
}
