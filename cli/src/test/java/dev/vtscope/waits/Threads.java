package dev.vtscope.waits;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpFacts;
import dev.vtscope.threaddump.DumpFormat;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.Frames;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Hand-built dumped threads, their frames written as the JSON dump writes them. */
public final class Threads {

  private Threads() {}

  public static final String VT_BOTTOM =
      "java.base/java.lang.VirtualThread.run(VirtualThread.java:466)";

  public static DumpedThread thread(
      long tid, ThreadKind kind, String state, Blocker blocker, String... frames) {
    return thread(tid, "t-" + tid, kind, state, -1, blocker, frames);
  }

  public static DumpedThread thread(
      long tid,
      String name,
      ThreadKind kind,
      String state,
      long carrier,
      Blocker blocker,
      String... frames) {
    return new DumpedThread(
        tid,
        name,
        kind,
        state,
        carrier,
        -1,
        stack(frames),
        blocker,
        List.of(),
        List.of(),
        null,
        -1,
        -1,
        null);
  }

  static RecordedStack stack(String... frames) {
    List<Frame> parsed = new ArrayList<>();
    for (String f : frames) {
      parsed.add(Frames.ofStackTraceElement(f));
    }
    return new RecordedStack(parsed, false);
  }

  public static Blocker.Parked parkedOn(String identity) {
    return new Blocker.Parked(ObjectRef.identity(identity), -1);
  }

  public static ThreadDump dump(Instant at, List<DumpedThread> threads) {
    return new ThreadDump(
        DumpFormat.JSON,
        at,
        42,
        "25.0.3+9-LTS",
        new DumpFacts(true, true, true, true, false, false),
        threads,
        List.of(),
        List.of(),
        true,
        List.of());
  }
}
