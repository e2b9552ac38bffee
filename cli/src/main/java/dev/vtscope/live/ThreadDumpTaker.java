package dev.vtscope.live;

import dev.vtscope.files.AtomicFile;
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
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Takes a running JVM's thread dump: {@code Thread.print -l} first (cheap: the carriers and what
 * they carry, the platform threads' CPU time and owned locks), then {@code Thread.dump_to_file
 * -format=json} (every thread, virtual ones too) into a temporary folder of vtscope's, deleted
 * again, completed by the first ({@link DumpMerge}); the files the user keeps are written whole
 * from there ({@link AtomicFile}), never in part where another command reads them. The one way
 * vtscope takes a dump: {@link Scope} says which threads its users keep.
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

  /** Which threads a dump keeps. */
  public enum Scope {
    /**
     * Every thread, the virtual threads that hold no carrier too (a lock cycle, a fan-out queued
     * behind a semaphore): what {@code vtscope dump} analyses. The JSON reader interns stacks, so
     * 100,000 virtual threads waiting at one place cost their ids and names.
     */
    WHOLE,
    /**
     * What {@code watch --pid} and {@code record --pid} read, again and again, of a JVM that may
     * hold 100,000 virtual threads: those this class's comment lists, which carriers pinned now and
     * deadlocks need.
     */
    LIVE_VIEW
  }

  /** The file name endings of a dump's files: JSON, plain text and {@code Thread.print}. */
  public static final String JSON = ".json";

  public static final String PLAIN_TEXT = ".txt";

  public static final String THREAD_PRINT = ".thread-print.txt";

  private ThreadDumpTaker() {}

  /** The JVM with this pid's threads now. */
  public static ThreadDump take(long pid, Scope scope) throws LiveException {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      return take(jvm, scope, null);
    }
  }

  /**
   * The threads of the JVM attached to, now.
   *
   * @param keep where the dump's files are kept, as a path without ending (e.g. {@code
   *     dumps/4242-1}): {@code Thread.print -l} as jcmd prints it ({@link #THREAD_PRINT}) and the
   *     JSON ({@link #JSON}) or, when that failed, the plain text ({@link #PLAIN_TEXT}), the files
   *     {@code vtscope analyze} reads back as the same dump; or null to delete them
   */
  public static ThreadDump take(AttachedJvm jvm, Scope scope, Path keep) throws LiveException {
    long pid = jvm.pid();
    Path folder;
    try {
      // the JVM writes into a folder of vtscope's: what is kept is written whole, by AtomicFile
      folder = Files.createTempDirectory("vtscope-threads-");
    } catch (IOException e) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "cannot make a temporary folder for pid " + pid + "'s thread dump: " + e.getMessage(),
          e);
    }
    Path json = folder.resolve("threads.json");
    Path text = folder.resolve("threads.txt");
    Path read = null;
    // the Thread.print's file is written last, once the dump is read: whoever waits for a dump's
    // files sees it whole when that one is there
    try {
      // Thread.print first: it names the virtual threads mounted now, which the live view keeps
      String printedText = jvm.execute("Thread.print -l");
      ThreadDump printed = ThreadPrint.parse(printedText);
      Predicate<DumpedThread> keepThread =
          scope == Scope.WHOLE ? t -> true : mountedOrPlatform(printed);
      String jsonFailed = dumpToFile(jvm, "-format=json ", json);
      if (jsonFailed == null) {
        ThreadDump full;
        try (InputStream in = Files.newInputStream(json)) {
          full = DumpMerge.of(ThreadDumpJson.read(in, keepThread), printed);
        }
        if (full.complete()) {
          read = json;
          return kept(full, keep, pid, printedText, read);
        }
        jsonFailed = String.join("; ", full.notes());
      }
      jsonFailed += controlCharacterHint(printed);
      String textFailed = dumpToFile(jvm, "", text);
      if (textFailed == null) {
        ThreadDump full;
        try (Reader in = Files.newBufferedReader(text, StandardCharsets.UTF_8)) {
          full = ThreadDumpText.read(in, keepThread);
        }
        read = text;
        return kept(
            DumpMerge.of(full, printed)
                .withNote(
                    "the JSON thread dump failed ("
                        + jsonFailed
                        + "): read its plain text (Thread.dump_to_file) instead"),
            keep,
            pid,
            printedText,
            read);
      }
      return kept(
          printed.withNote(
              "the JSON thread dump failed ("
                  + jsonFailed
                  + "), and its plain text too ("
                  + textFailed
                  + "): read Thread.print alone, which shows virtual threads only while mounted"),
          keep,
          pid,
          printedText,
          null);
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
        // a temporary file left behind: nothing else depends on it
      }
    }
  }

  private static Path withEnding(Path keep, String ending) {
    return keep.resolveSibling(keep.getFileName() + ending);
  }

  /**
   * {@code dump}, its files kept when {@code keep} says where, each written whole ({@link
   * AtomicFile}): the file read ({@code read}, JSON or plain text, moved there with its time), then
   * its {@code Thread.print} as jcmd prints it, after the pid line, which the reader takes the pid
   * from, and with the time of the file read, since analyze pairs a {@code Thread.print} with the
   * dump nearest in time.
   */
  private static ThreadDump kept(
      ThreadDump dump, Path keep, long pid, String printedText, Path read) throws LiveException {
    if (keep == null) {
      return dump;
    }
    try {
      java.nio.file.attribute.FileTime taken = null;
      if (read != null) {
        taken = Files.getLastModifiedTime(read);
        Path file =
            withEnding(keep, read.getFileName().toString().endsWith(JSON) ? JSON : PLAIN_TEXT);
        AtomicFile.writeFile(
            file, scratch -> Files.move(read, scratch, StandardCopyOption.REPLACE_EXISTING));
        Files.setLastModifiedTime(file, taken);
      }
      Path printed = withEnding(keep, THREAD_PRINT);
      byte[] bytes = (pid + ":\n" + printedText).getBytes(StandardCharsets.UTF_8);
      AtomicFile.write(printed, out -> out.write(bytes));
      if (taken != null) {
        Files.setLastModifiedTime(printed, taken);
      }
    } catch (IOException e) {
      throw new LiveException(LiveException.Reason.UNREADABLE, e.getMessage(), e);
    }
    return dump;
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
