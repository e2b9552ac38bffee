package dev.vtscope.waits;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.threaddump.ThreadDump;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Tells what a dumped thread waits for: from the dump's explicit fields first (a monitor being
 * entered, a class's initialisation, the object parked on), from the stack second, so that a dump
 * of JDK 21, whose JSON has only stacks, and one of JDK 25 say the same of the same wait.
 *
 * <p>The stack is read from the JDK frames at its top: the outermost of them that a known API names
 * (a {@code Semaphore.acquire} before the {@code LockSupport.park} it calls) says the kind; the
 * explicit field then only names the object. One instance per dump: a stack's reading is kept by
 * its identity, as the readers make each distinct stack once.
 */
public final class WaitClassifier {

  /**
   * A JDK method that says what a thread waits for.
   *
   * @param className its class
   * @param methodPrefix the start of its name, or "" for any method of the class
   * @param kind the wait it means
   * @param resourceClass what is waited for, or null to take the object the dump names
   */
  private record Api(String className, String methodPrefix, WaitKind kind, String resourceClass) {
    boolean matches(Frame f) {
      return f.className().equals(className) && f.method().startsWith(methodPrefix);
    }
  }

  private static final String JUC = "java.util.concurrent.";
  private static final String LOCKS = JUC + "locks.";

  /** The known APIs; the first that matches a frame says its kind. */
  private static final List<Api> APIS =
      List.of(
          // a carrier's own frames end where the virtual thread it carries begins
          new Api("java.lang.VirtualThread", "runContinuation", WaitKind.CARRYING, null),
          new Api("jdk.internal.vm.Continuation", "run", WaitKind.CARRYING, null),
          new Api("java.lang.Thread", "join", WaitKind.JOIN, "java.lang.Thread"),
          new Api(JUC + "StructuredTaskScope", "join", WaitKind.JOIN, JUC + "StructuredTaskScope"),
          new Api("java.lang.Thread", "sleep", WaitKind.SLEEP, null),
          new Api(JUC + "TimeUnit", "sleep", WaitKind.SLEEP, null),
          new Api(JUC + "ForkJoinPool", "awaitWork", WaitKind.IDLE_WORKER, JUC + "ForkJoinPool"),
          new Api(
              JUC + "ThreadPoolExecutor",
              "getTask",
              WaitKind.IDLE_WORKER,
              JUC + "ThreadPoolExecutor"),
          new Api(JUC + "DelayScheduler", "loop", WaitKind.IDLE_WORKER, JUC + "ForkJoinPool"),
          new Api("sun.nio.ch.Poller", "", WaitKind.IDLE_WORKER, "sun.nio.ch.Poller"),
          new Api("java.util.TimerThread", "mainLoop", WaitKind.IDLE_WORKER, "java.util.Timer"),
          new Api(
              "java.lang.ref.Reference", "waitForReferencePendingList", WaitKind.IDLE_WORKER, null),
          new Api("java.lang.ref.ReferenceQueue", "remove", WaitKind.IDLE_WORKER, null),
          new Api("jdk.internal.ref.CleanerImpl", "run", WaitKind.IDLE_WORKER, null),
          new Api(
              "java.lang.VirtualThread",
              "takeVirtualThreadListToUnblock",
              WaitKind.IDLE_WORKER,
              null),
          new Api(JUC + "Semaphore", "", WaitKind.SYNCHRONIZER, JUC + "Semaphore"),
          new Api(JUC + "CountDownLatch", "await", WaitKind.SYNCHRONIZER, JUC + "CountDownLatch"),
          new Api(JUC + "CyclicBarrier", "", WaitKind.SYNCHRONIZER, JUC + "CyclicBarrier"),
          new Api(JUC + "Phaser", "", WaitKind.SYNCHRONIZER, JUC + "Phaser"),
          new Api(JUC + "Exchanger", "exchange", WaitKind.SYNCHRONIZER, JUC + "Exchanger"),
          new Api(JUC + "CompletableFuture", "get", WaitKind.FUTURE, JUC + "CompletableFuture"),
          new Api(JUC + "CompletableFuture", "join", WaitKind.FUTURE, JUC + "CompletableFuture"),
          new Api(JUC + "FutureTask", "get", WaitKind.FUTURE, JUC + "FutureTask"),
          // a worker runs its tasks through doExec: only what waits for a task's end is a wait
          new Api(JUC + "ForkJoinTask", "get", WaitKind.FUTURE, JUC + "ForkJoinTask"),
          new Api(JUC + "ForkJoinTask", "join", WaitKind.FUTURE, JUC + "ForkJoinTask"),
          new Api(JUC + "ForkJoinTask", "invoke", WaitKind.FUTURE, JUC + "ForkJoinTask"),
          new Api(LOCKS + "ReentrantLock", "", WaitKind.LOCK, LOCKS + "ReentrantLock"),
          new Api(
              LOCKS + "ReentrantReadWriteLock$ReadLock",
              "",
              WaitKind.LOCK,
              LOCKS + "ReentrantReadWriteLock"),
          new Api(
              LOCKS + "ReentrantReadWriteLock$WriteLock",
              "",
              WaitKind.LOCK,
              LOCKS + "ReentrantReadWriteLock"),
          new Api(LOCKS + "StampedLock", "", WaitKind.LOCK, LOCKS + "StampedLock"),
          new Api(
              LOCKS + "AbstractQueuedSynchronizer$ConditionObject",
              "await",
              WaitKind.CONDITION,
              LOCKS + "Condition"),
          new Api(
              LOCKS + "AbstractQueuedLongSynchronizer$ConditionObject",
              "await",
              WaitKind.CONDITION,
              LOCKS + "Condition"),
          new Api(
              "java.net.Socket$SocketInputStream", "read", WaitKind.SOCKET_IO, "java.net.Socket"),
          new Api(
              "java.net.Socket$SocketOutputStream", "write", WaitKind.SOCKET_IO, "java.net.Socket"),
          new Api("java.net.Socket", "connect", WaitKind.SOCKET_IO, "java.net.Socket"),
          new Api("java.net.ServerSocket", "accept", WaitKind.SOCKET_IO, "java.net.ServerSocket"),
          new Api(
              "java.net.ServerSocket", "implAccept", WaitKind.SOCKET_IO, "java.net.ServerSocket"),
          new Api("sun.nio.ch.NioSocketImpl", "read", WaitKind.SOCKET_IO, "java.net.Socket"),
          new Api("sun.nio.ch.NioSocketImpl", "write", WaitKind.SOCKET_IO, "java.net.Socket"),
          new Api(
              "sun.nio.ch.NioSocketImpl", "accept", WaitKind.SOCKET_IO, "java.net.ServerSocket"),
          new Api("sun.nio.ch.NioSocketImpl", "connect", WaitKind.SOCKET_IO, "java.net.Socket"),
          new Api(
              "sun.nio.ch.SocketChannelImpl",
              "",
              WaitKind.SOCKET_IO,
              "java.nio.channels.SocketChannel"),
          new Api(
              "sun.nio.ch.ServerSocketChannelImpl",
              "accept",
              WaitKind.SOCKET_IO,
              "java.nio.channels.ServerSocketChannel"),
          new Api(
              "java.net.DatagramSocket", "receive", WaitKind.SOCKET_IO, "java.net.DatagramSocket"),
          new Api("java.lang.Object", "wait", WaitKind.MONITOR_WAIT, null),
          new Api(LOCKS + "LockSupport", "park", WaitKind.PARKED, null),
          new Api("jdk.internal.misc.Unsafe", "park", WaitKind.PARKED, null),
          new Api("java.lang.VirtualThread", "park", WaitKind.PARKED, null));

  /** What a stack alone says; its kind is null when no known API is on it. */
  private record StackReading(
      WaitKind kind, String resourceClass, Frame matched, Frame entry, Frame via, Frame site) {}

  private final FrameOwnership ownership;
  private final Attributor classes;
  private final IntPredicate monitorsHoldCarrier;
  private final Map<RecordedStack, StackReading> read = new IdentityHashMap<>();

  /**
   * @param ownership which frames are the application's ({@code --app-package})
   */
  public WaitClassifier(FrameOwnership ownership) {
    this(ownership, null, feature -> false);
  }

  /**
   * A classifier that also tells, of a series of dumps, the virtual threads that wait to enter a
   * monitor where the dumps do not say it (JDK 21–23): they wait there, holding their carrier,
   * where one dump shows them running ({@link CarrierHolding}'s rule, the one of the pinned-now
   * threads).
   *
   * @param ownership which frames are the application's ({@code --app-package})
   * @param classes reads the class files of the dumps' frames; null to infer no monitor entry
   * @param monitorsHoldCarrier whether waiting to enter a monitor pins on a JDK feature release
   */
  public WaitClassifier(
      FrameOwnership ownership, Attributor classes, IntPredicate monitorsHoldCarrier) {
    this.ownership = ownership;
    this.classes = classes;
    this.monitorsHoldCarrier = monitorsHoldCarrier;
  }

  /**
   * For each dump of {@code series} (oldest first), the ids of its virtual threads that wait to
   * enter a monitor, holding their carrier, as the series shows and the dumps do not say.
   */
  List<Set<Long>> enteringPinned(List<ThreadDump> series) {
    return CarrierHolding.enteringPinned(series, classes, monitorsHoldCarrier).stream()
        .map(Map::keySet)
        .toList();
  }

  /** What {@code t} waits for. */
  public Wait classify(DumpedThread t) {
    List<Frame> frames = t.frames();
    if (t.stack() == null && t.isVirtual() && t.carrier() >= 0) {
      // carried, its frames not printed (JDK 21's Thread.print): it runs or is pinned, unseen
      return wait(WaitKind.RUNNING, null, null, null, null);
    }
    if (frames.isEmpty()) {
      if (t.blocker() instanceof Blocker.ClassInit init) {
        return wait(WaitKind.CLASS_INIT, init.className(), null, null, null);
      }
      // a virtual thread has Java frames from its first run on: none means not yet run; a
      // platform thread with none is the JVM's own (Signal Dispatcher, a compiler thread)
      return wait(t.isVirtual() ? WaitKind.NOT_STARTED : WaitKind.NATIVE, null, null, null, null);
    }
    if (!t.isVirtual() && isJvmService(frames)) {
      // with the JVM's threads that have no Java frames: one line for the JVM's own housekeeping
      return wait(WaitKind.NATIVE, null, null, null, null);
    }
    StackReading s = read.computeIfAbsent(t.stack(), this::read);
    String operation = s.kind() == WaitKind.SOCKET_IO ? operation(s.matched()) : null;
    Blocker b = t.blocker();
    // what the stack cannot show: the JVM blocks a monitor enter and a class's initialisation in
    // the frame that asked, with no JDK frame above it
    if (b instanceof Blocker.MonitorEnter enter) {
      return wait(WaitKind.MONITOR_ENTER, className(enter.lock()), id(enter.lock()), s, operation);
    }
    if (b instanceof Blocker.ClassInit init) {
      return wait(WaitKind.CLASS_INIT, init.className(), null, s, operation);
    }
    ObjectRef object =
        b instanceof Blocker.Parked p
            ? p.blocker()
            : b instanceof Blocker.MonitorWait w ? w.lock() : null;
    WaitKind kind = s.kind();
    if (kind == null) {
      kind = fromState(t, frames);
    }
    String resourceClass = s.resourceClass() != null ? s.resourceClass() : className(object);
    return wait(kind, resourceClass, id(object), s, operation);
  }

  /**
   * The JDK's own service threads, which every JVM has and no application runs code in: the
   * reference handler, the finalizer, the cleaner and other innocuous threads, JFR's, the signal
   * handlers, and the thread writing the dump itself. Told by their outermost frame below {@code
   * Thread.run}, with every frame the JDK's; a finalizer or shutdown hook running the application's
   * code is not one.
   */
  private static boolean isJvmService(List<Frame> frames) {
    int outer = frames.size() - 1;
    while (outer > 0
        && frames.get(outer).className().equals("java.lang.Thread")
        && (frames.get(outer).method().equals("run")
            || frames.get(outer).method().equals("runWith"))) {
      outer--;
    }
    String origin = frames.get(outer).className();
    boolean service = false;
    for (String prefix : JVM_SERVICES) {
      service |= origin.startsWith(prefix);
    }
    if (!service) {
      return false;
    }
    for (Frame f : frames) {
      if (!FrameOwnership.isJdk(f)) {
        return false;
      }
    }
    return true;
  }

  private static final List<String> JVM_SERVICES =
      List.of(
          "java.lang.ref.Reference$ReferenceHandler",
          "java.lang.ref.Finalizer$FinalizerThread",
          "jdk.internal.misc.InnocuousThread",
          "jdk.internal.ref.CleanerImpl",
          "jdk.jfr.internal.",
          "jdk.internal.misc.Signal",
          "java.lang.Terminator",
          "jdk.internal.vm.ThreadDumper");

  /** The kind of a thread whose stack names no known API: by its state, its top frame. */
  private static WaitKind fromState(DumpedThread t, List<Frame> frames) {
    if ("BLOCKED".equals(t.state())) {
      return WaitKind.MONITOR_ENTER;
    }
    if ("WAITING".equals(t.state()) || "TIMED_WAITING".equals(t.state())) {
      return WaitKind.PARKED;
    }
    return frames.get(0).isNativeMethod() ? WaitKind.NATIVE : WaitKind.RUNNING;
  }

  private StackReading read(RecordedStack stack) {
    List<Frame> frames = stack.frames();
    // the JDK frames at the top: what the application called, down to the primitive
    int firstOwn = 0;
    while (firstOwn < frames.size() && FrameOwnership.isJdk(frames.get(firstOwn))) {
      firstOwn++;
    }
    WaitKind kind = null;
    String resourceClass = null;
    Frame matched = null;
    for (int i = firstOwn - 1; i >= 0 && kind == null; i--) {
      Frame f = frames.get(i);
      for (Api api : APIS) {
        if (api.matches(f)) {
          kind = api.kind();
          resourceClass = api.resourceClass();
          matched = f;
          break;
        }
      }
      if (kind == null && isQueue(f)) {
        kind = WaitKind.QUEUE;
        resourceClass = f.className();
        matched = f;
      }
    }
    List<Owner> owners = firstOwn < frames.size() ? ownership.classify(stack) : List.of();
    int site = site(owners, firstOwn);
    return new StackReading(
        kind,
        resourceClass,
        matched,
        entry(frames, firstOwn, matched),
        via(frames, owners, firstOwn, site),
        site < 0 ? null : frames.get(site));
  }

  /**
   * The JDK method the application called: the JDK frame just above its first own frame; for a
   * stack of JDK frames only (a pool's worker), the one that told the kind, else the top one.
   */
  private static Frame entry(List<Frame> frames, int firstOwn, Frame matched) {
    if (firstOwn == 0) {
      return null; // it waits in its own code: a monitor's enter, or it runs
    }
    if (firstOwn < frames.size()) {
      return frames.get(firstOwn - 1);
    }
    return matched != null ? matched : frames.get(0);
  }

  /**
   * Where the application's first frame is; the first frame that is not the JDK's when the stack
   * has none of the application's; -1 when all are the JDK's.
   */
  private static int site(List<Owner> owners, int firstOwn) {
    if (firstOwn >= owners.size()) {
      return -1;
    }
    for (int i = firstOwn; i < owners.size(); i++) {
      if (owners.get(i) == Owner.APPLICATION) {
        return i;
      }
    }
    return firstOwn;
  }

  /**
   * The library method the application called, which went on to wait ({@code
   * HikariDataSource.getConnection} above a pool's {@code SynchronousQueue.poll}): the frame just
   * above the application's first, when it is a library's; null when the application called the JDK
   * itself or the stack has no frame of the application.
   */
  private static Frame via(List<Frame> frames, List<Owner> owners, int firstOwn, int site) {
    if (site <= firstOwn) {
      return null;
    }
    return owners.get(site) == Owner.APPLICATION && owners.get(site - 1) == Owner.LIBRARY
        ? frames.get(site - 1)
        : null;
  }

  /** A blocking queue's waiting method: {@code LinkedBlockingQueue.take}, {@code put}, … */
  private static boolean isQueue(Frame f) {
    String name = f.className();
    if (!name.startsWith(JUC) || name.indexOf('.', JUC.length()) >= 0) {
      return false;
    }
    String simple = name.substring(JUC.length());
    int nested = simple.indexOf('$');
    String outer = nested < 0 ? simple : simple.substring(0, nested);
    if (!outer.endsWith("Queue") && !outer.endsWith("Deque")) {
      return false;
    }
    return switch (f.method()) {
      case "take",
          "put",
          "poll",
          "offer",
          "transfer",
          "takeFirst",
          "takeLast",
          "putFirst",
          "putLast",
          "pollFirst",
          "pollLast" ->
          true;
      default -> false;
    };
  }

  private static String operation(Frame f) {
    String m = f.method().toLowerCase(java.util.Locale.ROOT);
    return m.contains("accept")
        ? "accept"
        : m.contains("connect") ? "connect" : m.contains("write") ? "write" : "read";
  }

  private static Wait wait(
      WaitKind kind, String resourceClass, String resourceId, StackReading s, String operation) {
    Frame entry = s == null ? null : s.entry();
    Frame via = s == null ? null : s.via();
    Frame site = s == null ? null : s.site();
    return new Wait(
        new WaitKey(
            kind,
            resourceClass,
            resourceId,
            entry == null ? null : entry.qualifiedMethod(),
            via == null ? null : Frame.stableClassName(via.className()) + "." + via.method(),
            site == null ? null : siteKey(site)),
        entry,
        via,
        site,
        operation,
        resourceId);
  }

  /** A frame as a key: {@code Class.method:line}, a hidden class's address left out. */
  static String siteKey(Frame f) {
    return Frame.stableClassName(f.className()) + "." + f.method() + ":" + f.line();
  }

  private static String className(ObjectRef ref) {
    return ref == null ? null : ref.className();
  }

  /** An object's id when it joins across dumps: an identity hash, never an address. */
  private static String id(ObjectRef ref) {
    return ref == null || ref.kind() != ObjectRef.IdKind.IDENTITY ? null : ref.id();
  }
}
