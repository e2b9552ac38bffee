package dev.vtscope.threaddump;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.time.Instant;
import java.util.List;

/**
 * One thread of a dump, as the dump says it; what a format does not say is null, -1 or empty.
 *
 * @param tid its Java thread id, the same in every format
 * @param name its name, as written (it may hold quotes and control characters)
 * @param kind whether it is virtual, as the dump says
 * @param state its {@link Thread.State} name, or null when the dump does not say (JDK 21's JSON, a
 *     virtual thread in {@code Thread.print})
 * @param carrier for a mounted virtual thread, its carrier's id; -1 when not mounted or not said
 * @param carrying for a carrier, the id of the virtual thread it carries, or -1
 * @param stack its frames, innermost first, read as a recording's; null when the dump does not
 *     print them (a virtual thread carried on JDK 21's {@code Thread.print})
 * @param blocker what it waits for, as the dump states it, or null
 * @param monitors the monitors it holds
 * @param ownableSynchronizers the {@code java.util.concurrent} locks it owns ({@code Thread.print
 *     -l}, platform threads only)
 * @param container the JSON dump's container it is listed in, or null
 * @param cpuNanos the CPU time it has used ({@code Thread.print}), or -1
 * @param elapsedNanos how long it has lived ({@code Thread.print}), or -1
 * @param sampledAt when the JSON dump of JDK 25+ sampled it, or null
 */
public record DumpedThread(
    long tid,
    String name,
    ThreadKind kind,
    String state,
    long carrier,
    long carrying,
    RecordedStack stack,
    Blocker blocker,
    List<HeldMonitor> monitors,
    List<ObjectRef> ownableSynchronizers,
    String container,
    long cpuNanos,
    long elapsedNanos,
    Instant sampledAt) {

  public DumpedThread {
    monitors = List.copyOf(monitors);
    ownableSynchronizers = List.copyOf(ownableSynchronizers);
  }

  /**
   * Whether it is a virtual thread: as the dump says, or when it does not (JDK 21's JSON) as its
   * stack does ({@link #toldKind}).
   */
  public boolean isVirtual() {
    return toldKind() == ThreadKind.VIRTUAL;
  }

  /**
   * Whether it is virtual, as the dump says, or when it does not (JDK 21's JSON) as its stack does:
   * a virtual thread's ends in {@code java.lang.VirtualThread.run}, a platform thread's in anything
   * else. One with no frames stays {@link ThreadKind#UNKNOWN}: JDK 21's JSON lists a virtual thread
   * not started yet so, and the JVM's own threads (Signal Dispatcher) too, in the same container,
   * with nothing else to tell them apart; a {@code Thread.print} taken beside it does ({@link
   * DumpMerge}).
   */
  public ThreadKind toldKind() {
    if (kind != ThreadKind.UNKNOWN) {
      return kind;
    }
    if (stack == null || stack.frames().isEmpty()) {
      return ThreadKind.UNKNOWN;
    }
    Frame last = stack.frames().get(stack.frames().size() - 1);
    return last.className().equals("java.lang.VirtualThread") && last.method().equals("run")
        ? ThreadKind.VIRTUAL
        : ThreadKind.PLATFORM;
  }

  /** Whether it carries a virtual thread. */
  /** The same thread, of {@code other} kind: as another format of the same moment says it. */
  public DumpedThread withKind(ThreadKind other) {
    return with(other, stack);
  }

  /** The same thread with {@code other} frames. */
  public DumpedThread withStack(RecordedStack other) {
    return with(kind, other);
  }

  private DumpedThread with(ThreadKind otherKind, RecordedStack otherStack) {
    return new DumpedThread(
        tid,
        name,
        otherKind,
        state,
        carrier,
        carrying,
        otherStack,
        blocker,
        monitors,
        ownableSynchronizers,
        container,
        cpuNanos,
        elapsedNanos,
        sampledAt);
  }

  public boolean isCarrier() {
    return carrying >= 0;
  }

  /** Its frames, or none when the dump does not print them. */
  public List<Frame> frames() {
    return stack == null ? List.of() : stack.frames();
  }
}
