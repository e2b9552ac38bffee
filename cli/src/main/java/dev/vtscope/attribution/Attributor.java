package dev.vtscope.attribution;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies the attribution rules of {@code docs/attribution.md} to a stack. On JDK 24+ the pinned
 * reason says what pinned; before, the innermost frame that holds a monitor, is a native or
 * foreign-function boundary, or runs a class initialiser is the culprit (of nested monitors, one of
 * the party that owns the outermost holder outside the JDK). Results are cached per stack, so the
 * rules run once per distinct stack, not once per event.
 */
public final class Attributor {

  // A class name may hold any character but . ; [ / in its simple name, spaces and line breaks
  // among them: the whole reason is matched, not the name's first word.
  private static final Pattern CLINIT_ON_STACK =
      Pattern.compile("VM call to (.+)\\.<clinit> on stack", Pattern.DOTALL);
  private static final Pattern CLINIT_WAIT =
      Pattern.compile("Waited for initialization of (.+) by another thread", Pattern.DOTALL);
  private static final int CACHE_LIMIT = 50_000;
  private static final int UNCHECKED_SHOWN = 3;

  private final ClassBytesSource classes;
  private boolean usedJdkTable;
  private final FrameOwnership ownership;
  private final ArtifactResolver artifacts = new ArtifactResolver();
  private final Map<String, Optional<SynchronizedBlockLocator>> locators = new HashMap<>();
  private final Map<String, Optional<ClassBytes>> classBytes = new HashMap<>();
  private final Map<RecordedStack, Map<String, Attribution>> cache = new IdentityHashMap<>();
  private final Set<String> mismatchedClasses = new java.util.HashSet<>();

  public Attributor(ClassBytesSource classes, FrameOwnership ownership) {
    this.classes = classes;
    this.ownership = ownership;
  }

  /** Who to blame for a pinned event with this stack and (JDK 24+) reason. */
  public Attribution pinned(RecordedStack stack, String reason) {
    return cached(stack, reason == null ? "" : reason, () -> attributePinned(stack, reason));
  }

  /**
   * Who to blame for a virtual thread that waits, pinned, for another thread to initialise {@code
   * className}, as a thread dump shows it: that class's initialiser, as JDK 24+'s pinned event
   * reason names it.
   */
  public Attribution classInitWait(RecordedStack stack, String className) {
    return pinned(stack, "Waited for initialization of " + className + " by another thread");
  }

  /** Who to blame for a monitor enter or wait of a virtual thread (JDK 21–23). */
  public Attribution monitor(RecordedStack stack, boolean wait, String monitorClass) {
    String key = (wait ? "wait:" : "enter:") + monitorClass;
    return cached(stack, key, () -> attributeMonitor(stack, wait, monitorClass));
  }

  /**
   * Who to blame for carrier work that is not pinning: {@code kind} is {@code cpu} or {@code spin}
   * (a run of execution samples), {@code file-read} or {@code file-write} (blocking file I/O), or
   * {@code compensation} (the stack of a carrier's start by the scheduler's compensation). The
   * culprit is the first frame outside the JDK, the code a user can change; its detail names the
   * JDK call it made, for file I/O and compensated blocking.
   */
  public Attribution carrierWork(RecordedStack stack, String kind) {
    return cached(stack, "work:" + kind, () -> attributeCarrierWork(stack, kind));
  }

  private Attribution attributeCarrierWork(RecordedStack stack, String kind) {
    List<Frame> frames = stack.frames();
    List<Owner> owners = ownership.classify(stack);
    CulpritKind culpritKind =
        switch (kind) {
          case "spin" -> CulpritKind.SPIN_WAIT;
          case "file-read", "file-write", "file-run" -> CulpritKind.FILE_IO;
          case "class-load-run" -> CulpritKind.CLASS_LOADING;
          case "compensation" -> CulpritKind.COMPENSATED_BLOCKING;
          default -> CulpritKind.CPU_BOUND;
        };
    int index = firstNonJdk(owners, 0);
    Culprit culprit;
    if (index < 0) {
      culprit =
          frames.isEmpty()
              ? new Culprit(
                  "<unknown>", "<unknown>", -1, culpritKind, Owner.JDK, null, null, -1, null)
              : culpritAt(frames, owners, 0, culpritKind, null, null);
    } else {
      String detail = null;
      if (index > 0
          && (culpritKind == CulpritKind.FILE_IO
              || culpritKind == CulpritKind.COMPENSATED_BLOCKING
              || culpritKind == CulpritKind.SPIN_WAIT)) {
        detail = frames.get(index - 1).qualifiedMethod();
      }
      culprit = culpritAt(frames, owners, index, culpritKind, null, detail);
    }
    Attribution attribution = finish(stack, owners, culprit, List.of());
    if (culpritKind != CulpritKind.COMPENSATED_BLOCKING) {
      return attribution;
    }
    return new Attribution(
        attribution.culprit(),
        attribution.otherMonitorFrames(),
        attribution.waitedAt(),
        attribution.calledFrom(),
        attribution.calledFromArtifact(),
        attribution.owners(),
        BlockingCall.find(frames, index));
  }

  private Attribution cached(
      RecordedStack stack, String key, java.util.function.Supplier<Attribution> rules) {
    Map<String, Attribution> byKey = cache.computeIfAbsent(stack, s -> new HashMap<>());
    Attribution known = byKey.get(key);
    if (known == null) {
      if (cache.size() > CACHE_LIMIT) {
        cache.clear();
        byKey = cache.computeIfAbsent(stack, s -> new HashMap<>());
      }
      known = rules.get();
      byKey.put(key, known);
    }
    return known;
  }

  private Attribution attributePinned(RecordedStack stack, String reason) {
    List<Frame> frames = stack.frames();
    List<Owner> owners = ownership.classify(stack);
    List<MonitorFrame> monitors = monitorFrames(frames);
    Culprit culprit;
    if (reason != null) {
      culprit = fromReason(frames, owners, reason);
    } else {
      culprit = fromStack(frames, owners, monitors, stack.truncated());
    }
    return finish(stack, owners, culprit, monitors);
  }

  private Attribution attributeMonitor(RecordedStack stack, boolean wait, String monitorClass) {
    List<Frame> frames = stack.frames();
    List<Owner> owners = ownership.classify(stack);
    // A monitor is entered by the top frame, whoever owns it (a synchronized method of the JDK is
    // named as such; the application line that called it is calledFrom). A wait is named by the
    // frame that called Object.wait, JDK code or not (Object.wait itself says nothing); when it is
    // the JDK's, calledFrom names the library or application frame that called in.
    int index = wait ? waitCaller(frames) : frames.isEmpty() ? -1 : 0;
    Frame frame = index < 0 ? null : frames.get(index);
    if (wait && index == 0 && isClassInitLock(monitorClass)) {
      // No Object.wait on the stack, and the monitor is an int[]: JDK 21-23 wait for another
      // thread's class initialiser on the class's initialisation lock, an int[], and JFR writes
      // that as a monitor wait of the frame that needed the class.
      Culprit culprit =
          new Culprit(
              frame.className(),
              frame.method(),
              frame.line(),
              CulpritKind.CLASS_INIT_WAIT,
              owners.get(0),
              artifactOf(frame),
              null,
              0,
              "waited for another thread to finish initialising a class this line uses (recorded"
                  + " as a wait on the class's initialisation lock, an int[]): the carrier was"
                  + " held although no pinned event was recorded");
      return finish(stack, owners, culprit, monitorFrames(frames));
    }
    String monitor = monitorClass == null ? "a monitor" : "a monitor of class " + monitorClass;
    Culprit culprit =
        new Culprit(
            frame != null ? frame.className() : monitorClass != null ? monitorClass : "<unknown>",
            frame != null ? frame.method() : "<unknown>",
            frame != null ? frame.line() : -1,
            wait ? CulpritKind.MONITOR_WAIT : CulpritKind.MONITOR_ENTER,
            index < 0 ? Owner.JDK : owners.get(index),
            index < 0 ? null : artifactOf(frame),
            null,
            index,
            (wait ? "waited on " : "blocked entering ")
                + monitor
                + ": the carrier was held although no pinned event was recorded");
    return finish(stack, owners, culprit, monitorFrames(frames));
  }

  /** JDK 24+: the reason names the cause. */
  private Culprit fromReason(List<Frame> frames, List<Owner> owners, String reason) {
    Matcher init = CLINIT_ON_STACK.matcher(reason);
    if (init.find()) {
      return classInit(frames, owners, init.group(1), CulpritKind.CLASS_INIT);
    }
    Matcher waited = CLINIT_WAIT.matcher(reason);
    if (waited.find()) {
      return classInit(frames, owners, waited.group(1), CulpritKind.CLASS_INIT_WAIT);
    }
    int loading = ClassLoading.entryIndex(frames);
    if (reason.startsWith("Native or VM frame on stack")) {
      int nativeIndex = nativeBoundaryIndex(frames);
      if (loading >= 0 && (nativeIndex < 0 || loading < nativeIndex)) {
        return classLoading(frames, owners, loading);
      }
      Culprit boundary = nativeBoundary(frames, owners);
      if (boundary != null) {
        return boundary;
      }
      int clinit = clinitFrame(frames, null);
      if (clinit >= 0) {
        return classInit(frames, owners, frames.get(clinit).className(), CulpritKind.CLASS_INIT);
      }
    }
    if (loading >= 0 && reason.startsWith("Freeze or preempt failed")) {
      return classLoading(frames, owners, loading);
    }
    if (reason.startsWith("Freeze or preempt failed") && enteredByTheVm(frames)) {
      return culpritAt(
          frames,
          owners,
          0,
          CulpritKind.CLASS_LOADING,
          null,
          "no Java monitor is entered at this line: the JVM took a lock of its own, most likely"
              + " to load, link or initialise a class this line uses first, and could not unmount"
              + " the thread while it waited");
    }
    return unknown(frames, owners, "pinned reason: " + reason);
  }

  /**
   * A pin that failed to unmount at an ordinary Java frame, not in a park, sleep or native call:
   * the shape of a contended lock the JVM takes itself (JDK 24+ unmounts a thread waiting for a
   * Java monitor, so a Java monitor would not pin here).
   */
  private static boolean enteredByTheVm(List<Frame> frames) {
    if (frames.isEmpty()) {
      return false;
    }
    Frame top = frames.get(0);
    return !top.isNativeMethod()
        && !top.isSynchronizedMethod()
        && !top.className().equals("java.lang.VirtualThread")
        && !top.className().startsWith("jdk.internal.vm.Continuation")
        && !top.method().startsWith("park")
        && !top.method().equals("<clinit>");
  }

  private Culprit classLoading(List<Frame> frames, List<Owner> owners, int index) {
    String loader = ClassLoading.customLoader(frames, index);
    return culpritAt(
        frames,
        owners,
        index,
        CulpritKind.CLASS_LOADING,
        null,
        "the JVM was loading a class for the frame below"
            + (loader == null ? "" : ", through " + loader)
            + "; a virtual thread cannot unmount inside that call");
  }

  /**
   * JDK 21–23: the innermost cause that holds the carrier; of several monitors, the one {@link
   * #changeableHolder} picks.
   */
  private Culprit fromStack(
      List<Frame> frames, List<Owner> owners, List<MonitorFrame> monitors, boolean truncated) {
    int boundary = nativeBoundaryIndex(frames);
    int clinit = clinitFrame(frames, null);
    int monitor = monitors.isEmpty() ? -1 : monitors.get(0).frameIndex();
    int best = minNonNegative(boundary, clinit, monitor);
    int end = best < 0 ? frames.size() : best;
    String unchecked = uncheckedFrames(frames, end);
    String uncheckedJdk = uncheckedJdkFrames(frames, end);
    if (best < 0) {
      String notFound =
          truncated
              ? "no recorded frame holds a monitor, is native or initialises a class, and the stack"
                  + " was truncated: the frame that holds the carrier is probably beyond it"
                  + " (re-record with -XX:FlightRecorderOptions:stackdepth=256)"
              : "no frame holds a monitor, is native or initialises a class; the cause is not in"
                  + " the recorded stack";
      List<String> somewhere = new ArrayList<>();
      if (unchecked != null) {
        somewhere.add(
            "holds a monitor somewhere in " + unchecked + "; " + classPathHint("pinpoint it"));
      }
      if (uncheckedJdk != null) {
        somewhere.add(
            (unchecked == null ? "holds a monitor somewhere in " : "or in ")
                + uncheckedJdk
                + JDK_MISSING);
      }
      return unknown(
          frames,
          owners,
          somewhere.isEmpty()
              ? notFound
              : String.join(", ", somewhere)
                  + (truncated ? ", or it is beyond the truncated stack" : ""));
    }
    String detail =
        unchecked == null
            ? null
            : "frames nearer the top were not checked for synchronized blocks ("
                + unchecked
                + "); "
                + classPathHint("check them");
    if (uncheckedJdk != null) {
      String jdkDetail =
          "JDK frames nearer the top were not checked for synchronized blocks ("
              + uncheckedJdk
              + ")"
              + JDK_MISSING;
      detail = detail == null ? jdkDetail : detail + "; " + jdkDetail;
    }
    // A synchronized native method pins as a native frame: dropping synchronized would not help.
    if (best == monitor && best != boundary) {
      MonitorFrame m = monitors.get(changeableHolder(monitors, frames, owners));
      best = m.frameIndex();
      Frame holder = frames.get(best);
      var jdk = classes.jdkClassFiles();
      if (m.kind() == CulpritKind.SYNCHRONIZED_BLOCK && FrameOwnership.isJdk(holder)) {
        // which class files answered: the block's range depends on the JDK release
        boolean fromTable = locator(holder.className()).map(l -> l.fromTable()).orElse(false);
        usedJdkTable |= fromTable;
        String source =
            fromTable
                ? "the JDK's synchronized block, from vtscope's table of the JDK "
                    + classes.jdkTableUpdates().map(u -> String.join(", ", u)).orElse("")
                    + " blocks (the recording's JDK is not installed here)"
                : "the JDK's synchronized block, read from the class files of JDK "
                    + jdk.map(ClassBytesSource.JdkClassFiles::version).orElse("?");
        detail = detail == null ? source : source + "; " + detail;
      }
      return culpritAt(frames, owners, best, m.kind(), m.lineRange(), detail);
    }
    if (best == clinit) {
      Culprit init =
          classInit(frames, owners, frames.get(clinit).className(), CulpritKind.CLASS_INIT);
      return detail == null ? init : withDetail(init, detail);
    }
    return withDetail(nativeBoundary(frames, owners), detail);
  }

  /**
   * Which of the frames that hold monitors (innermost first) is the culprit. The carrier stays
   * pinned until the outermost is released, and the fix belongs to code someone can change: the
   * party (the application, or one library) that owns the outermost holder the JDK does not. Of
   * that party's holders, the innermost not inside another party's is named, as a library's known
   * pins are (its nested monitors are freed by the same fix). Only when every holder is the JDK's,
   * the innermost; the JDK's holders are listed as the others.
   */
  private int changeableHolder(
      List<MonitorFrame> monitors, List<Frame> frames, List<Owner> owners) {
    int outermost = -1;
    for (int m = monitors.size() - 1; m >= 0 && outermost < 0; m--) {
      int i = monitors.get(m).frameIndex();
      if (i < owners.size() && owners.get(i) != Owner.JDK) {
        outermost = m;
      }
    }
    if (outermost < 0) {
      return 0;
    }
    Object party = partyOf(frames, owners, monitors.get(outermost).frameIndex());
    int chosen = outermost;
    for (int m = outermost - 1; m >= 0; m--) {
      int i = monitors.get(m).frameIndex();
      if (i >= owners.size() || owners.get(i) == Owner.JDK) {
        continue;
      }
      if (!party.equals(partyOf(frames, owners, i))) {
        break;
      }
      chosen = m;
    }
    return chosen;
  }

  /**
   * Who can change a frame's code: the application, or a library, known by its jar or, without one,
   * its first two package segments.
   */
  private Object partyOf(List<Frame> frames, List<Owner> owners, int index) {
    if (owners.get(index) == Owner.APPLICATION) {
      return Owner.APPLICATION;
    }
    String className = frames.get(index).className();
    return bytes(className)
        .map(ClassBytes::jar)
        .<Object>map(jar -> jar)
        .orElseGet(() -> FrameOwnership.prefixOf(className));
  }

  private static int minNonNegative(int... values) {
    int best = -1;
    for (int v : values) {
      if (v >= 0 && (best < 0 || v < best)) {
        best = v;
      }
    }
    return best;
  }

  private static Culprit withDetail(Culprit c, String detail) {
    if (detail == null) {
      return c;
    }
    return new Culprit(
        c.className(),
        c.method(),
        c.line(),
        c.kind(),
        c.owner(),
        c.artifact(),
        c.lineRange(),
        c.frameIndex(),
        detail);
  }

  /** The class initialiser of {@code className}: its frame when on the stack. */
  private Culprit classInit(
      List<Frame> frames, List<Owner> owners, String className, CulpritKind kind) {
    int index = clinitFrame(frames, className);
    if (index >= 0) {
      return culpritAt(frames, owners, index, kind, null, null);
    }
    Owner owner =
        FrameOwnership.isJdkPackage(className)
            ? Owner.JDK
            : ownerOfClass(frames, owners, className);
    return new Culprit(
        className, "<clinit>", -1, kind, owner, artifactOf(className), null, -1, null);
  }

  private static Owner ownerOfClass(List<Frame> frames, List<Owner> owners, String className) {
    for (int i = 0; i < frames.size(); i++) {
      if (frames.get(i).className().equals(className)) {
        return owners.get(i);
      }
    }
    // Not on the stack: a class of the application's packages is the application's.
    for (int i = 0; i < frames.size(); i++) {
      if (owners.get(i) == Owner.APPLICATION
          && sharesPrefix(frames.get(i).className(), className)) {
        return Owner.APPLICATION;
      }
    }
    return Owner.LIBRARY;
  }

  private static boolean sharesPrefix(String a, String b) {
    return FrameOwnership.prefixOf(a).equals(FrameOwnership.prefixOf(b));
  }

  private static int clinitFrame(List<Frame> frames, String className) {
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      if (f.method().equals("<clinit>") && (className == null || f.className().equals(className))) {
        return i;
      }
    }
    return -1;
  }

  private Culprit nativeBoundary(List<Frame> frames, List<Owner> owners) {
    int index = nativeBoundaryIndex(frames);
    if (index < 0) {
      return null;
    }
    if (!isForeign(frames.get(index))) {
      return culpritAt(
          frames,
          owners,
          index,
          CulpritKind.NATIVE_METHOD,
          null,
          "native code called back into Java and the thread blocked there; a native frame pins the"
              + " carrier on every JDK");
    }
    // The upcall stub is a hidden JDK class: blame the Java frame that made the downcall, and say
    // which upcall blocked.
    int caller = firstNonJdk(owners, index + 1);
    int target = -1;
    for (int i = index - 1; i >= 0; i--) {
      if (owners.get(i) != Owner.JDK) {
        target = i;
        break;
      }
    }
    String detail =
        "blocked in an upcall"
            + (target >= 0 ? " to " + frames.get(target).qualifiedMethod() : "")
            + " from native code"
            + (caller >= 0 ? " that " + frames.get(caller).qualifiedMethod() + " called" : "")
            + "; a native frame pins the carrier on every JDK";
    return caller < 0
        ? culpritAt(frames, owners, index, CulpritKind.FOREIGN_FUNCTION, null, detail)
        : culpritAt(frames, owners, caller, CulpritKind.FOREIGN_FUNCTION, null, detail);
  }

  /**
   * The innermost native or foreign-function frame below some Java frame: where native code called
   * back into Java. Natives at the very top (the JDK's own parking and event machinery) are not it.
   */
  private static int nativeBoundaryIndex(List<Frame> frames) {
    boolean javaAbove = false;
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      if (isForeign(f)) {
        return i;
      }
      boolean machinery =
          f.className().equals("java.lang.VirtualThread")
              || f.className().startsWith("jdk.internal.vm.Continuation")
              || f.className().equals("java.lang.Object")
              || f.className().equals("jdk.internal.misc.Unsafe");
      if (f.isNativeMethod() && !machinery && javaAbove) {
        return i;
      }
      if (!f.isNativeMethod()) {
        javaAbove = true;
      }
    }
    return -1;
  }

  private static boolean isForeign(Frame f) {
    return f.className().startsWith("jdk.internal.foreign.abi.");
  }

  /**
   * Where a thread dump's stack enters a monitor, for a dump that says nothing of monitors (JDK
   * 21–23's JSON, a carried virtual thread's frames): its innermost frame is where a thread waiting
   * on a {@code monitorenter} or at a {@code synchronized} method's start is shown, as the class
   * file tells; and the frame that holds a monitor already, innermost first. Null when the
   * innermost frame enters none, or its class file is not at hand.
   *
   * <p>Only a thread that does not run sits there: the caller knows it from a series of dumps.
   */
  public MonitorEntry monitorEntry(List<Frame> frames) {
    if (frames.isEmpty()) {
      return null;
    }
    Frame top = frames.get(0);
    if (top.line() < 0 || top.bytecodeIndex() >= 0) {
      return null;
    }
    Optional<SynchronizedBlockLocator> locator = locator(top.className());
    if (locator.isEmpty()) {
      entryClassesMissing.add(top.className());
      return null;
    }
    // thousands of threads of a dump stand at a few frames: the bytecode is read once a frame
    Optional<Boolean> entering =
        enteringAt.computeIfAbsent(
            top, f -> Optional.ofNullable(locator.get().entersAtLine(f.method(), f.line())));
    Boolean holdsOwn = entering.orElse(null);
    if (holdsOwn == null) {
      return null;
    }
    if (holdsOwn) {
      return new MonitorEntry(top, top);
    }
    List<MonitorFrame> held = monitorFrames(frames.subList(1, frames.size()));
    return new MonitorEntry(top, held.isEmpty() ? null : frames.get(held.get(0).frameIndex() + 1));
  }

  /**
   * The classes of frames {@link #monitorEntry} was asked about whose class files were not found:
   * where it could not tell a thread waiting to enter a monitor from one that runs.
   */
  public Set<String> monitorEntryClassesMissing() {
    return java.util.Collections.unmodifiableSet(entryClassesMissing);
  }

  private final Set<String> entryClassesMissing = new java.util.TreeSet<>();
  private final Map<Frame, Optional<Boolean>> enteringAt = new HashMap<>();

  /**
   * A frame where a thread enters a monitor, and the frame that holds one already.
   *
   * @param entering the innermost frame, on the line that enters a monitor
   * @param holding the innermost frame inside a {@code synchronized} block or method (the entering
   *     frame itself when its block is inside another of its own), or null when none is
   */
  public record MonitorEntry(Frame entering, Frame holding) {}

  /** Frames that hold a monitor, innermost first. */
  private List<MonitorFrame> monitorFrames(List<Frame> frames) {
    List<MonitorFrame> result = new ArrayList<>();
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      if (f.isSynchronizedMethod() || synchronizedMethodInDump(f)) {
        result.add(new MonitorFrame(i, CulpritKind.SYNCHRONIZED_METHOD, null));
        continue;
      }
      SynchronizedBlockLocator.Region region = blockAt(f);
      if (region != null) {
        result.add(new MonitorFrame(i, CulpritKind.SYNCHRONIZED_BLOCK, region.lines()));
      }
    }
    return result;
  }

  /**
   * Whether a thread dump's frame (a line, no bytecode index, descriptor or modifiers) is in a
   * {@code synchronized} method: the class file says, where it is found.
   */
  private boolean synchronizedMethodInDump(Frame f) {
    return f.bytecodeIndex() < 0
        && f.descriptor() == null
        && f.line() >= 0
        && locator(f.className())
            .map(l -> l.synchronizedMethodAtLine(f.method(), f.line()))
            .orElse(false);
  }

  /**
   * The innermost synchronized block at the frame's place, or null; asked once a frame: with many
   * distinct stacks, each frame is in many of them.
   */
  private SynchronizedBlockLocator.Region blockAt(Frame f) {
    Optional<SynchronizedBlockLocator.Region> known = regions.get(f);
    if (known == null) {
      if (regions.size() >= FRAME_CACHE_LIMIT) {
        regions.clear();
      }
      known = Optional.ofNullable(findBlockAt(f));
      regions.put(f, known);
    }
    return known.orElse(null);
  }

  private static final int FRAME_CACHE_LIMIT = 100_000;

  private final Map<Frame, Optional<SynchronizedBlockLocator.Region>> regions = new HashMap<>();
  private final Map<Frame, Optional<SynchronizedBlockLocator>> checkedLocators = new HashMap<>();

  private SynchronizedBlockLocator.Region findBlockAt(Frame f) {
    if (f.bytecodeIndex() < 0) {
      // A thread dump's frame has a line but no bytecode index or descriptor: a block of a method
      // of that name whose body holds the line.
      return f.descriptor() == null && f.line() >= 0
          ? locator(f.className()).map(l -> l.innermostAtLine(f.method(), f.line())).orElse(null)
          : null;
    }
    return checkedLocator(f)
        .map(l -> l.innermost(f.method() + f.descriptor(), f.bytecodeIndex()))
        .orElse(null);
  }

  /** The class's blocks, when its bytes are the ones that ran (their lines match the frame's). */
  /**
   * What to do about application or library classes whose class files were not found: pass
   * --classpath, or, when it was passed, add what it lacks.
   */
  private String classPathHint(String what) {
    return classes.userClassPathGiven()
        ? NOT_IN_CLASS_PATH_GIVEN
            + " nor the recording's class path as it exists here: add the jars or folders that"
            + " hold them to --classpath to "
            + what
        : "pass --classpath to " + what;
  }

  /** Said of classes whose files the --classpath the user gave does not hold. */
  public static final String NOT_IN_CLASS_PATH_GIVEN =
      "their class files are in neither the --classpath given";

  /** Whether a holder named so far was found through vtscope's table of a JDK release's blocks. */
  public boolean usedJdkTable() {
    return usedJdkTable;
  }

  private Optional<SynchronizedBlockLocator> checkedLocator(Frame f) {
    Optional<SynchronizedBlockLocator> known = checkedLocators.get(f);
    if (known == null) {
      if (checkedLocators.size() >= FRAME_CACHE_LIMIT) {
        checkedLocators.clear();
      }
      known = findCheckedLocator(f);
      checkedLocators.put(f, known);
    }
    return known;
  }

  private Optional<SynchronizedBlockLocator> findCheckedLocator(Frame f) {
    if (f.descriptor() == null && f.bytecodeIndex() < 0) {
      // a thread dump's frame: a method's name and line, no descriptor or bytecode index
      return locator(f.className()).filter(l -> l.matchesAtLine(f.method(), f.line()));
    }
    return locator(f.className())
        .filter(
            l -> l.matches(f.method() + f.descriptor(), Math.max(0, f.bytecodeIndex()), f.line()));
  }

  private Optional<SynchronizedBlockLocator> locator(String className) {
    return locators.computeIfAbsent(
        className,
        name ->
            bytes(name)
                .flatMap(
                    b -> {
                      try {
                        return Optional.of(new SynchronizedBlockLocator(b.bytes()));
                      } catch (RuntimeException e) {
                        return Optional.empty(); // bytes that are no class file count as missing
                      }
                    })
                .or(() -> classes.jdkTableLocator(name)));
  }

  private Optional<ClassBytes> bytes(String className) {
    return classBytes.computeIfAbsent(className, classes::find);
  }

  /** What a user needs to check JDK frames: said wherever they could not be. */
  public static final String JDK_MISSING =
      ": the class files of the recording's JDK release were not found here; install that release"
          + " (see the notes) and run again";

  /**
   * Where the application entered JDK code whose class files were not read (no JDK of the
   * recording's release is installed, or the one found is another build), above {@code end}: the
   * JDK frames called by a non-JDK frame, up to three, or null when every JDK frame was checked.
   */
  private String uncheckedJdkFrames(List<Frame> frames, int end) {
    Set<String> entries = new LinkedHashSet<>();
    boolean any = false;
    for (int i = 0; i < end; i++) {
      Frame f = frames.get(i);
      // a native method has no bytecode, so no synchronized block to look for
      if (!FrameOwnership.isJdk(f)
          || f.isSynchronizedMethod()
          || f.isNativeMethod()
          || f.className().contains("$$Lambda")
          || f.className().contains("/")
          || checkedLocator(f).isPresent()) {
        continue;
      }
      any = true;
      boolean enteredFromOutside =
          i + 1 < frames.size() && !FrameOwnership.isJdk(frames.get(i + 1));
      if (enteredFromOutside && entries.size() < UNCHECKED_SHOWN) {
        entries.add(f.qualifiedMethod());
      }
    }
    if (!any) {
      return null;
    }
    return entries.isEmpty()
        ? "the JDK's frames"
        : "the JDK code entered at " + String.join(", ", entries);
  }

  /** Up to three non-JDK frames above {@code end} whose class bytes were not found, or null. */
  private String uncheckedFrames(List<Frame> frames, int end) {
    Set<String> missing = new LinkedHashSet<>();
    int count = 0;
    for (int i = 0; i < end; i++) {
      Frame f = frames.get(i);
      if (FrameOwnership.isJdk(f)
          || f.isSynchronizedMethod()
          || f.isNativeMethod()
          || f.className().contains("$$Lambda")) {
        continue;
      }
      if (checkedLocator(f).isEmpty()) {
        if (locator(f.className()).isPresent()) {
          mismatchedClasses.add(f.className());
        }
        count++;
        if (missing.size() < UNCHECKED_SHOWN) {
          missing.add(f.qualifiedMethod());
        }
      }
    }
    if (missing.isEmpty()) {
      return null;
    }
    String shown =
        String.join(", ", missing)
            + (count > missing.size() ? " and " + (count - missing.size()) + " more" : "");
    boolean otherBuild = missing.stream().anyMatch(m -> mismatchedClasses.contains(classOf(m)));
    return otherBuild
        ? shown + " (the class files found are another build than the one recorded)"
        : shown;
  }

  private static String classOf(String qualifiedMethod) {
    return qualifiedMethod.substring(0, qualifiedMethod.lastIndexOf('.'));
  }

  private Culprit unknown(List<Frame> frames, List<Owner> owners, String detail) {
    Frame top = new RecordedStack(frames, false).topApplicationFrame();
    int index = top == null ? (frames.isEmpty() ? -1 : 0) : frames.indexOf(top);
    if (index < 0) {
      return new Culprit(
          "<unknown>", "<unknown>", -1, CulpritKind.UNKNOWN, Owner.JDK, null, null, -1, detail);
    }
    Frame f = frames.get(index);
    return new Culprit(
        f.className(),
        f.method(),
        f.line(),
        CulpritKind.UNKNOWN,
        owners.get(index),
        artifactOf(f),
        null,
        index,
        detail);
  }

  private Culprit culpritAt(
      List<Frame> frames,
      List<Owner> owners,
      int index,
      CulpritKind kind,
      LineRange lines,
      String detail) {
    Frame f = frames.get(index);
    return new Culprit(
        f.className(),
        f.method(),
        f.line(),
        kind,
        owners.get(index),
        artifactOf(f),
        lines,
        index,
        detail);
  }

  private Artifact artifactOf(Frame frame) {
    return FrameOwnership.isJdk(frame) ? null : artifactOf(frame.className());
  }

  private Artifact artifactOf(String className) {
    Optional<ClassBytes> b = bytes(className);
    if (b.isEmpty() || b.get().jar() == null) {
      return null;
    }
    int dot = className.lastIndexOf('.');
    return artifacts.resolve(b.get().jar(), dot < 0 ? "" : className.substring(0, dot));
  }

  private Attribution finish(
      RecordedStack stack, List<Owner> owners, Culprit culprit, List<MonitorFrame> monitors) {
    List<Frame> frames = stack.frames();
    List<MonitorFrame> others =
        monitors.stream().filter(m -> m.frameIndex() != culprit.frameIndex()).toList();
    Frame waitedAt = stack.topApplicationFrame();
    // Where the code that holds the carrier was called from: for JDK code the first frame outside
    // the JDK (a library or the application: what a user can change), for a library's the
    // application's. Generated classes (proxies, lambdas) are passed over: no one can change them.
    Frame calledFrom = null;
    Artifact calledFromArtifact = null;
    if (culprit.owner() != Owner.APPLICATION) {
      int from = culprit.frameIndex() < 0 ? 0 : culprit.frameIndex() + 1;
      for (int i = from; i < frames.size(); i++) {
        if (frames.get(i).isGenerated()) {
          continue;
        }
        if (culprit.owner() == Owner.JDK
            ? owners.get(i) != Owner.JDK
            : owners.get(i) == Owner.APPLICATION) {
          calledFrom = frames.get(i);
          calledFromArtifact = owners.get(i) == Owner.LIBRARY ? artifactOf(calledFrom) : null;
          break;
        }
      }
    }
    return new Attribution(culprit, others, waitedAt, calledFrom, calledFromArtifact, owners, null);
  }

  /** The class HotSpot's class-initialisation lock has: an {@code int[]}. */
  private static boolean isClassInitLock(String monitorClass) {
    return "[I".equals(monitorClass) || "int[]".equals(monitorClass);
  }

  /** The first frame below Object.wait's own frames, or -1. */
  private static int waitCaller(List<Frame> frames) {
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      if (!("java.lang.Object".equals(f.className()) && f.method().startsWith("wait"))) {
        return i;
      }
    }
    return -1;
  }

  private static int firstNonJdk(List<Owner> owners, int from) {
    for (int i = from; i < owners.size(); i++) {
      if (owners.get(i) != Owner.JDK) {
        return i;
      }
    }
    return -1;
  }
}
