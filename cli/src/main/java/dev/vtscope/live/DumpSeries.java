package dev.vtscope.live;

import dev.vtscope.analysis.DumpAnalyzer.NamedDump;
import dev.vtscope.analysis.SchedulerSettings;
import dev.vtscope.files.AtomicFile;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.SchedulerLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Thread dumps of one running JVM taken for an analysis ({@code vtscope dump}): one, or a series of
 * them, each started {@code every} after the one before (at once when a dump took longer), each
 * whole ({@link ThreadDumpTaker.Scope#WHOLE}). A JVM that exits during a series leaves the dumps
 * taken before, with a note saying so.
 */
public final class DumpSeries {

  /** Says which dump is being taken, e.g. on a progress line. */
  @FunctionalInterface
  public interface Progress {
    /** Dump {@code n} (from 1) of {@code count} starts. */
    void taking(int n, int count);
  }

  /**
   * What a series gave.
   *
   * @param dumps the dumps taken, in order, each named by its files when kept, else by its pid and
   *     number
   * @param exited whether the JVM exited before the last one: {@code dumps} holds fewer than asked,
   *     the last with a note saying so
   * @param classPath the JVM's class path, or null
   * @param workingDirectory the JVM's working folder, or null
   * @param scheduler the JVM's scheduler parallelism and maximum pool size, which no dump before
   *     JDK 25 says
   */
  public record Taken(
      List<NamedDump> dumps,
      boolean exited,
      String classPath,
      String workingDirectory,
      SchedulerLimits scheduler) {

    public Taken {
      dumps = List.copyOf(dumps);
    }

    /** These dumps, then {@code more}'s, of the same JVM. */
    public Taken then(Taken more) {
      List<NamedDump> all = new ArrayList<>(dumps);
      all.addAll(more.dumps());
      return new Taken(all, more.exited(), classPath, workingDirectory, scheduler);
    }
  }

  private DumpSeries() {}

  /**
   * The ending of the file kept beside a series' dumps with the JVM's class path and working folder
   * ({@code PID.jvm.properties}): {@code analyze DIR} reads the class files there, which tell on
   * JDK 21–23 where a virtual thread waits to enter a monitor, as {@code dump} did.
   */
  public static final String JVM_PROPERTIES = ".jvm.properties";

  private static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
  private static final String MAX_POOL_SIZE = "jdk.virtualThreadScheduler.maxPoolSize";

  /**
   * Keeps {@code classPath}, {@code workingDirectory} and the scheduler's size in effect in {@code
   * file}, as properties.
   */
  private static void keepJvm(
      Path file, String classPath, String workingDirectory, SchedulerLimits scheduler)
      throws LiveException {
    java.util.Properties kept = new java.util.Properties();
    if (classPath != null) {
      kept.setProperty("java.class.path", classPath);
    }
    if (workingDirectory != null) {
      kept.setProperty("user.dir", workingDirectory);
    }
    // the values in effect, set or derived from the JVM's processors, so that a saved series is
    // read as the running JVM was
    if (scheduler.parallelism() > 0) {
      kept.setProperty(PARALLELISM, Integer.toString(scheduler.parallelism()));
    }
    if (scheduler.maxPoolSize() > 0) {
      kept.setProperty(MAX_POOL_SIZE, Integer.toString(scheduler.maxPoolSize()));
    }
    try {
      AtomicFile.write(
          file,
          out -> {
            java.io.Writer writer = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
            kept.store(
                writer,
                "the JVM's class path and scheduler, which vtscope analyze reads beside its dumps");
            writer.flush();
          });
    } catch (java.io.IOException e) {
      throw new LiveException(LiveException.Reason.UNREADABLE, e.getMessage(), e);
    }
  }

  /**
   * The scheduler's size kept in a {@link #JVM_PROPERTIES} file, read back: {@link
   * SchedulerLimits#UNKNOWN} for a file of an older vtscope, which kept none.
   */
  public static SchedulerLimits keptScheduler(java.util.Properties kept) {
    return new SchedulerLimits(
        positive(kept.getProperty(PARALLELISM)), positive(kept.getProperty(MAX_POOL_SIZE)));
  }

  private static int positive(String value) {
    try {
      return value == null ? 0 : Math.max(0, Integer.parseInt(value.strip()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The scheduler's parallelism and maximum pool size in effect in a running JVM: its {@code
   * jdk.virtualThreadScheduler.*} properties where set, else derived as the JDK does from its
   * active processor count, which {@code VM.info} says. What cannot be read is left unknown: the
   * report is made without it.
   */
  private static SchedulerLimits scheduler(AttachedJvm jvm, java.util.Properties properties) {
    java.util.Map<String, String> set = new java.util.HashMap<>();
    for (String key : List.of(PARALLELISM, MAX_POOL_SIZE)) {
      if (properties.getProperty(key) != null) {
        set.put(key, properties.getProperty(key));
      }
    }
    int cpus = 0;
    if (!set.containsKey(PARALLELISM) || !set.containsKey(MAX_POOL_SIZE)) {
      try {
        cpus = activeProcessors(jvm.execute("VM.info"));
      } catch (LiveException e) {
        cpus = 0; // the dumps say what they can without it
      }
    }
    return SchedulerSettings.ofJvm(set, cpus).limits();
  }

  /**
   * The JVM's active processor count as {@code VM.info} says it ({@code CPU: total 8 (initial
   * active 2)}, or a container's {@code active_processor_count: 2}), or 0.
   */
  static int activeProcessors(String vmInfo) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\\(initial active (\\d+)\\)").matcher(vmInfo);
    if (m.find()) {
      return Integer.parseInt(m.group(1));
    }
    m = java.util.regex.Pattern.compile("(?m)^active_processor_count: (\\d+)\\s*$").matcher(vmInfo);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /**
   * Takes {@code count} dumps of the JVM with this pid.
   *
   * @param keepIn the folder where each dump's files are kept (named {@code PID-N}, {@link
   *     ThreadDumpTaker#take(AttachedJvm, ThreadDumpTaker.Scope, Path)}), with the JVM's class path
   *     ({@link #JVM_PROPERTIES}), or null
   * @throws LiveException when the JVM cannot be attached to, or the first dump fails
   */
  public static Taken take(long pid, int count, Duration every, Path keepIn, Progress progress)
      throws LiveException, InterruptedException {
    return take(pid, count, every, keepIn, 1, progress);
  }

  /**
   * Takes {@code count} dumps of the JVM with this pid, numbering them from {@code first}: more
   * dumps of a series already taken.
   */
  public static Taken take(
      long pid, int count, Duration every, Path keepIn, int first, Progress progress)
      throws LiveException, InterruptedException {
    List<NamedDump> dumps = new ArrayList<>();
    String classPath;
    String workingDirectory;
    SchedulerLimits scheduler;
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      java.util.Properties properties = jvm.systemProperties();
      classPath = properties.getProperty("java.class.path");
      workingDirectory = properties.getProperty("user.dir");
      scheduler = scheduler(jvm, properties);
      if (keepIn != null && first == 1) {
        keepJvm(keepIn.resolve(pid + JVM_PROPERTIES), classPath, workingDirectory, scheduler);
      }
      long start = System.nanoTime();
      for (int n = 1; n <= count; n++) {
        long due = start + (n - 1) * every.toNanos();
        if (n > 1 && exitsBy(pid, due)) {
          return new Taken(
              exitedAfter(dumps, pid, count), true, classPath, workingDirectory, scheduler);
        }
        progress.taking(n, count);
        Path keep = keepIn == null ? null : keepIn.resolve(pid + "-" + (first + n - 1));
        ThreadDump dump;
        try {
          dump = ThreadDumpTaker.take(jvm, ThreadDumpTaker.Scope.WHOLE, keep);
        } catch (LiveException e) {
          if (dumps.isEmpty() || !exits(pid)) {
            throw e;
          }
          return new Taken(
              exitedAfter(dumps, pid, count), true, classPath, workingDirectory, scheduler);
        }
        dumps.add(new NamedDump(name(pid, first + n - 1, first + count - 1, keep, dump), dump));
      }
    }
    return new Taken(dumps, false, classPath, workingDirectory, scheduler);
  }

  /** Whether the JVM exits: a dump fails while it shuts down, a moment before its process ends. */
  private static boolean exits(long pid) throws InterruptedException {
    return exitsBy(pid, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
  }

  /**
   * Waits until {@code deadlineNanos} ({@link System#nanoTime}), or less when the JVM exits first:
   * a series of a JVM that ended stops then, not at its next dump. Whether it exited.
   */
  private static boolean exitsBy(long pid, long deadlineNanos) throws InterruptedException {
    ProcessHandle process = ProcessHandle.of(pid).orElse(null);
    if (process != null) {
      try {
        process.onExit().get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // still running
      }
    }
    return !TargetRecording.alive(pid);
  }

  /** A dump's name: its files as {@code analyze} names them when kept, else its pid and number. */
  private static String name(long pid, int n, int count, Path keep, ThreadDump dump) {
    if (keep == null) {
      return "pid " + pid + (count == 1 ? "" : ", dump " + n);
    }
    String printed = keep + ThreadDumpTaker.THREAD_PRINT;
    return switch (dump.format()) {
      case JSON -> keep + ThreadDumpTaker.JSON + " + " + printed;
      case PLAIN_TEXT -> keep + ThreadDumpTaker.PLAIN_TEXT + " + " + printed;
      case THREAD_PRINT -> printed;
    };
  }

  /** {@code dumps}, the last saying that the JVM exited before the next. */
  private static List<NamedDump> exitedAfter(List<NamedDump> dumps, long pid, int count) {
    List<NamedDump> taken = new ArrayList<>(dumps);
    NamedDump last = taken.remove(taken.size() - 1);
    taken.add(
        new NamedDump(
            last.name(),
            last.dump()
                .withNote(
                    "pid "
                        + pid
                        + " exited after "
                        + dumps.size()
                        + " of the "
                        + count
                        + " dumps asked for: the report is of those taken")));
    return taken;
  }
}
