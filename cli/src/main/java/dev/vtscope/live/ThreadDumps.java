package dev.vtscope.live;

import dev.vtscope.analysis.ThreadInDump;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.List;

/** A running JVM's thread dump, its threads made into the analysis's. */
public final class ThreadDumps {

  private ThreadDumps() {}

  /** The threads of the JVM with this pid now. */
  public static List<ThreadInDump> take(long pid) throws LiveException {
    return threads(ThreadDump.take(pid));
  }

  /** The threads of {@code dump}. */
  public static List<ThreadInDump> threads(ThreadDump dump) {
    List<ThreadInDump> threads = new ArrayList<>(dump.threads().size());
    for (ThreadDump.DumpedThread t : dump.threads()) {
      threads.add(
          new ThreadInDump(
              t.tid(),
              t.name(),
              t.virtual(),
              t.state(),
              t.carrier(),
              new RecordedStack(t.stack(), false)));
    }
    return threads;
  }
}
