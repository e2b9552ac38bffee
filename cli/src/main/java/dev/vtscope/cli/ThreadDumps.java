package dev.vtscope.cli;

import dev.vtscope.analysis.ThreadInDump;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.ThreadDump;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/** A running JVM's thread dump, its frames made into a recording's for the analysis. */
final class ThreadDumps {

  private ThreadDumps() {}

  /** The threads of the JVM with this pid now. */
  static List<ThreadInDump> take(long pid) throws LiveException {
    return threads(ThreadDump.take(pid));
  }

  static List<ThreadInDump> threads(ThreadDump dump) {
    List<ThreadInDump> threads = new ArrayList<>(dump.threads().size());
    for (ThreadDump.DumpedThread t : dump.threads()) {
      List<Frame> frames = new ArrayList<>(t.stack().size());
      for (ThreadDump.StackLine line : t.stack()) {
        frames.add(frame(line));
      }
      threads.add(
          new ThreadInDump(
              t.tid(),
              t.name(),
              t.virtual(),
              t.state(),
              t.carrier(),
              new RecordedStack(frames, false)));
    }
    return threads;
  }

  /**
   * A dump names no bytecode index, descriptor or class loader: a frame of a JDK module counts as
   * the boot loader's, any other as the application's.
   */
  private static Frame frame(ThreadDump.StackLine line) {
    String module = line.module();
    boolean jdk = module != null && (module.startsWith("java.") || module.startsWith("jdk."));
    return new Frame(
        line.className(),
        line.method(),
        null,
        line.line(),
        -1,
        line.nativeMethod() ? "Native" : null,
        line.nativeMethod() ? Modifier.NATIVE : 0,
        jdk ? Frame.ClassLoaderKind.BOOT : Frame.ClassLoaderKind.APPLICATION);
  }
}
