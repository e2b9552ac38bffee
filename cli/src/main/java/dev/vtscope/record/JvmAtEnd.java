package dev.vtscope.record;

import dev.vtscope.live.AttachedJvm;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.ThreadDumpTaker;
import dev.vtscope.threaddump.ThreadDump;
import java.io.PrintWriter;

/**
 * A recorded JVM's threads as its recording ended, and where its class files are, to attribute the
 * virtual threads pinned then: a pin that has not ended wrote no event.
 *
 * @param threads its thread dump, or null when none could be taken
 * @param classPath its {@code java.class.path}, or null
 * @param workingDirectory its {@code user.dir}, against which a relative class path is resolved
 * @param failure why no dump could be taken, or null
 */
public record JvmAtEnd(
    ThreadDump threads, String classPath, String workingDirectory, String failure) {

  /**
   * The JVM with this pid now; when it cannot be dumped, why (said on {@code stderr} too), so that
   * the report says what the carriers held is unknown rather than calling the JVM healthy.
   */
  static JvmAtEnd take(long pid, PrintWriter stderr) {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      java.util.Properties properties = jvm.systemProperties();
      ThreadDump dump = ThreadDumpTaker.take(jvm, ThreadDumpTaker.Scope.LIVE_VIEW, null);
      for (String note : dump.notes()) {
        stderr.println("vtscope record: pid " + pid + ": " + note);
      }
      stderr.flush();
      return new JvmAtEnd(
          dump,
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
      return new JvmAtEnd(null, null, null, e.getMessage());
    }
  }
}
