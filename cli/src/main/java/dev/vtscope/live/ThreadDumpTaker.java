package dev.vtscope.live;

import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadDumpJson;
import dev.vtscope.threaddump.ThreadDumpText;
import dev.vtscope.threaddump.ThreadPrint;
import dev.vtscope.waits.WaitGraph;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Takes a running JVM's thread dump: {@code Thread.print -l} first (cheap: the carriers and what
 * they carry, the platform threads' CPU time and owned locks), then {@code Thread.dump_to_file
 * -format=json} (every thread, virtual ones too) into a temporary folder of vtscope's, deleted
 * again, completed by the first ({@link DumpMerge}).
 *
 * <p>When the JSON fails, the dump falls back and its notes say which way and why: jcmd answers
 * something else than {@code Created …} (its exit status is 0 either way), or the file breaks off,
 * as it does on JDK 21 and 25 when a thread's name holds a control character (an ANSI colour in a
 * logging library's thread name is enough: the JDK's JSON writer fails on it); then the plain text
 * of {@code Thread.dump_to_file}, which the same names do not break; and when that fails too,
 * {@code Thread.print} alone, which shows virtual threads only while mounted (and on JDK 21 not
 * what they run).
 *
 * <p>The dump keeps the platform threads, the virtual threads mounted on a carrier, and those that
 * may be a link of a deadlock (blocked on a lock or a class's initialisation, holding a monitor,
 * running a class's initialisation), and those not started yet, which wait for a carrier: a JVM's
 * other virtual threads, 100,000 of them for some, hold no carrier and no lock. A virtual thread is
 * decided on when its JSON object ends, since JDK 25 writes its carrier last.
 */
public final class ThreadDumpTaker {

  private ThreadDumpTaker() {}

  /** The JVM with this pid's threads now. */
  public static ThreadDump take(long pid) throws LiveException {
    Path folder;
    try {
      folder = Files.createTempDirectory("vtscope-threads-");
    } catch (IOException e) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "cannot make a temporary folder for pid " + pid + "'s thread dump: " + e.getMessage(),
          e);
    }
    Path json = folder.resolve("threads.json");
    Path text = folder.resolve("threads.txt");
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      // Thread.print first: it names the virtual threads mounted now, which the reading keeps
      ThreadDump printed = ThreadPrint.parse(jvm.execute("Thread.print -l"));
      Predicate<DumpedThread> keep = mountedOrPlatform(printed);
      String jsonFailed = dumpToFile(jvm, "-format=json ", json);
      if (jsonFailed == null) {
        ThreadDump full;
        try (InputStream in = Files.newInputStream(json)) {
          full = read(in, printed);
        }
        if (full.complete()) {
          return full;
        }
        jsonFailed = String.join("; ", full.notes());
      }
      jsonFailed += controlCharacterHint(printed);
      String textFailed = dumpToFile(jvm, "", text);
      if (textFailed == null) {
        ThreadDump full;
        try (Reader in = Files.newBufferedReader(text, StandardCharsets.UTF_8)) {
          full = ThreadDumpText.read(in, keep);
        }
        return DumpMerge.of(full, printed)
            .withNote(
                "the JSON thread dump failed ("
                    + jsonFailed
                    + "): read its plain text (Thread.dump_to_file) instead");
      }
      return printed.withNote(
          "the JSON thread dump failed ("
              + jsonFailed
              + "), and its plain text too ("
              + textFailed
              + "): read Thread.print alone, which shows virtual threads only while mounted");
    } catch (IOException e) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "pid " + pid + "'s thread dump cannot be read: " + e.getMessage(),
          e);
    } finally {
      try {
        Files.deleteIfExists(json);
        Files.deleteIfExists(text);
        Files.deleteIfExists(folder);
      } catch (IOException e) {
        // a temporary folder left behind: nothing else depends on it
      }
    }
  }

  /**
   * Reads the JSON of {@code Thread.dump_to_file -format=json} as a dump is taken, completed by the
   * {@code Thread.print} taken just before it: the platform threads and the virtual threads mounted
   * on a carrier (as either says). Incomplete when the JSON breaks off.
   */
  public static ThreadDump read(InputStream json, ThreadDump printed) throws IOException {
    return DumpMerge.of(ThreadDumpJson.read(json, mountedOrPlatform(printed)), printed);
  }

  /**
   * Runs {@code Thread.dump_to_file} into {@code file}: null when the JVM created it, else why not,
   * in a few words (jcmd's reply, which on JDK 21 is the bare name of the exception).
   */
  private static String dumpToFile(AttachedJvm jvm, String options, Path file) {
    String path = file.toAbsolutePath().toString();
    String reply;
    try {
      reply =
          jvm.execute(
              "Thread.dump_to_file " + options + (path.contains(" ") ? "\"" + path + "\"" : path));
    } catch (LiveException e) {
      return e.getMessage();
    }
    String first = reply.strip().lines().findFirst().orElse("");
    if (first.startsWith("Created") && Files.isRegularFile(file)) {
      return null;
    }
    return first.isEmpty() ? "no answer, no file" : "the JVM answered: " + first;
  }

  /** Why the JSON writer fails, when a thread's name shows it. */
  private static String controlCharacterHint(ThreadDump printed) {
    for (DumpedThread t : printed.threads()) {
      if (t.name().chars().anyMatch(c -> c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
        return "; a thread's name holds a control character, which the JDK's JSON writer fails"
            + " on";
      }
    }
    return "";
  }

  /** Platform threads, and virtual threads mounted now: whose carrier either dump names. */
  private static Predicate<DumpedThread> mountedOrPlatform(ThreadDump printed) {
    Set<Long> carried = new HashSet<>();
    for (DumpedThread t : printed.threads()) {
      if (t.isCarrier()) {
        carried.add(t.carrying());
      }
    }
    return t ->
        !t.isVirtual()
            || t.carrier() >= 0
            || carried.contains(t.tid())
            || WaitGraph.mayBeLinked(t)
            // not started: it waits for a carrier, which tells a starvation
            || (t.stack() != null && t.frames().isEmpty());
  }
}
