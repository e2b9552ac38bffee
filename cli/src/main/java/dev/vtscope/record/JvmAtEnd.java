package dev.vtscope.record;

import dev.vtscope.live.AttachedJvm;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.ThreadDumpTaker;
import dev.vtscope.threaddump.ThreadDump;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded JVM's threads as its recording ended, and where its class files are, to attribute the
 * virtual threads pinned then: a pin that has not ended wrote no event.
 *
 * @param threads its last thread dump, or null when none could be taken
 * @param earlier the dumps taken a moment before it, oldest first: a chain unchanged in them is
 *     stuck, and on JDK 21-23 only they tell a virtual thread waiting to enter a monitor from one
 *     running
 * @param classPath its {@code java.class.path}, or null
 * @param workingDirectory its {@code user.dir}, against which a relative class path is resolved
 * @param failure why no dump could be taken, or null
 */
public record JvmAtEnd(
    ThreadDump threads,
    List<ThreadDump> earlier,
    String classPath,
    String workingDirectory,
    String failure) {

  /** The time between the two dumps taken at the end. */
  static final Duration APART = Duration.ofMillis(500);

  public JvmAtEnd {
    earlier = List.copyOf(earlier);
  }

  /** Every dump taken at the end, oldest first; empty when none could be. */
  public List<ThreadDump> series() {
    List<ThreadDump> all = new ArrayList<>(earlier);
    if (threads != null) {
      all.add(threads);
    }
    return all;
  }

  /**
   * The JVM with this pid now; when it cannot be dumped, why (said on {@code stderr} too), so that
   * the report says what the carriers held is unknown rather than calling the JVM healthy.
   */
  static JvmAtEnd take(long pid, PrintWriter stderr) {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      java.util.Properties properties = jvm.systemProperties();
      ThreadDump first = ThreadDumpTaker.take(jvm, ThreadDumpTaker.Scope.LIVE_VIEW, null);
      ThreadDump second = null;
      try {
        Thread.sleep(APART.toMillis());
        second = ThreadDumpTaker.take(jvm, ThreadDumpTaker.Scope.LIVE_VIEW, null);
      } catch (LiveException e) {
        // it exited or stopped answering: the first dump alone
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      for (String note : (second == null ? first : second).notes()) {
        stderr.println("vtscope record: pid " + pid + ": " + note);
      }
      stderr.flush();
      return new JvmAtEnd(
          second == null ? first : second,
          second == null ? List.of() : List.of(first),
          properties.getProperty("java.class.path"),
          properties.getProperty("user.dir"),
          null);
    } catch (LiveException e) {
      stderr.println(
          "vtscope record: no thread dump of pid "
              + pid
              + " ("
              + e.getMessage()
              + "): pins that have not ended are not shown");
      stderr.flush();
      return new JvmAtEnd(null, List.of(), null, null, e.getMessage());
    }
  }
}
