package dev.vtscope.live;

import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadDumpJson;
import dev.vtscope.threaddump.ThreadPrint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Takes a running JVM's thread dump: {@code Thread.print} first (cheap: the carriers and what they
 * carry, the platform threads' CPU time), then {@code Thread.dump_to_file -format=json} (every
 * thread, virtual ones too) into a temporary folder of vtscope's, deleted again, completed by the
 * first ({@link DumpMerge}).
 *
 * <p>The dump keeps the platform threads and the virtual threads mounted on a carrier: a JVM's
 * other virtual threads, 100,000 of them for some, hold no carrier. A virtual thread is decided on
 * when its JSON object ends, since JDK 25 writes its carrier last.
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
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      // Thread.print first: it names the virtual threads mounted now, which the reading keeps
      ThreadDump printed = ThreadPrint.parse(jvm.execute("Thread.print"));
      String failed = dumpToFile(jvm, "-format=json ", json);
      if (failed != null) {
        throw new LiveException(
            LiveException.Reason.COMMAND_FAILED, "pid " + pid + " wrote no thread dump: " + failed);
      }
      ThreadDump dump;
      try (InputStream in = Files.newInputStream(json)) {
        dump = read(in, printed);
      }
      if (!dump.complete()) {
        throw new LiveException(
            LiveException.Reason.COMMAND_FAILED,
            "pid " + pid + "'s thread dump cannot be read: " + String.join("; ", dump.notes()));
      }
      return dump;
    } catch (IOException e) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "pid " + pid + "'s thread dump cannot be read: " + e.getMessage(),
          e);
    } finally {
      try {
        Files.deleteIfExists(json);
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

  /** Platform threads, and virtual threads mounted now: whose carrier either dump names. */
  private static Predicate<DumpedThread> mountedOrPlatform(ThreadDump printed) {
    Set<Long> carried = new HashSet<>();
    for (DumpedThread t : printed.threads()) {
      if (t.isCarrier()) {
        carried.add(t.carrying());
      }
    }
    return t -> !t.isVirtual() || t.carrier() >= 0 || carried.contains(t.tid());
  }
}
