package dev.vtscope.analysis;

import dev.vtscope.recording.CpuSampleEvent;
import dev.vtscope.recording.FileIoEvent;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.recording.ThreadStartEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Carrier time that virtual threads take without pinning: stretches of CPU work (runs of execution
 * samples of one virtual thread), blocking file I/O, and the carriers the scheduler started to
 * compensate for blocking calls ({@code jdk.ThreadStart} stacks that pass through the pool's
 * compensation).
 *
 * <p>A run is a sequence of samples of one virtual thread at most {@link #MAX_GAP_NANOS} apart: JFR
 * samples running threads every 10 ms (profile settings) or 20 ms (default). A run's length, from
 * its first sample to its last, is a lower bound of the time the thread kept its carrier. Chunks
 * are collected separately and merged in any order: a run open at the end of one chunk joins the
 * run its thread starts the next chunk with, whichever of the two is merged first.
 */
final class CarrierWorkCollector {

  /**
   * The longest gap between two samples of one run: one missed sample at JFR's default period of 20
   * ms, three at 10 ms. Not a multiple of either period, so that gaps and lengths, which cluster at
   * multiples of the period, do not fall on it.
   */
  static final long MAX_GAP_NANOS = 45_000_000L;

  /** Runs at least this long are kept as sites; shorter ones only count. */
  static final long LONG_RUN_NANOS = 45_000_000L;

  /** The pinned-reason slot of the site collector carries what kind of carrier work a site is. */
  static final String CPU = "cpu";

  static final String SPIN = "spin";

  /** A run of samples mostly inside the JDK's blocking file calls. */
  static final String FILE_RUN = "file-run";

  /** A run of samples mostly inside class loading: first use of classes, warm-up. */
  static final String CLASS_LOAD_RUN = "class-load-run";

  static final String FILE_READ = "file-read";
  static final String FILE_WRITE = "file-write";
  static final String COMPENSATION = "compensation";

  /** One run of samples of a virtual thread. */
  private static final class Run {
    final long thread;
    final long first;
    long last;
    long samples;
    long spinSamples;
    long fileSamples;
    long loadingSamples;
    final RecordedStack stack;

    Run(long thread, long first, RecordedStack stack) {
      this.thread = thread;
      this.first = first;
      this.last = first;
      this.stack = stack;
    }

    void add(long at, boolean spin, boolean file, boolean loading) {
      last = Math.max(last, at);
      samples++;
      if (loading) {
        loadingSamples++;
      }
      if (spin) {
        spinSamples++;
      }
      if (file) {
        fileSamples++;
      }
    }

    Run copy() {
      Run copy = new Run(thread, first, stack);
      copy.join(this);
      return copy;
    }

    void join(Run later) {
      last = Math.max(last, later.last);
      samples += later.samples;
      spinSamples += later.spinSamples;
      fileSamples += later.fileSamples;
      loadingSamples += later.loadingSamples;
    }

    String kind() {
      return 2 * loadingSamples > samples
          ? CLASS_LOAD_RUN
          : 2 * fileSamples > samples ? FILE_RUN : 2 * spinSamples > samples ? SPIN : CPU;
    }
  }

  final SiteCollector runSites = new SiteCollector();
  final SiteCollector fileIoSites = new SiteCollector();
  final SiteCollector compensationSites = new SiteCollector();
  final DurationStatistics fileIoDurations = new DurationStatistics();
  final LongSet fileIoThreads = new LongSet();
  final LongSet sampledThreads = new LongSet();
  long samples;
  long nativeSamples;
  long runs;
  long longRuns;
  long longRunNanos;
  long longestRunNanos;
  long compensatedStarts;
  long startsWithStacks;

  /** Runs that may still grow, by thread. */
  private final Map<Long, Run> open = new HashMap<>();

  /**
   * Runs that began within a gap of the start of this collector's chunk: an earlier chunk's run of
   * the same thread may continue in them, so they are kept until merged.
   */
  private final Map<Long, Run> heads = new HashMap<>();

  /**
   * Runs that touch the edge of a chunk, this collector's or a merged one's: a run of a
   * neighbouring chunk may continue them. They are counted when the collector is {@link #finished}.
   */
  private List<Run> edgeRuns = new ArrayList<>();

  private long chunkStart = Long.MIN_VALUE;
  private long latest = Long.MIN_VALUE;

  /**
   * This chunk's samples, not yet in runs. A chunk does not hold them in time order (execution and
   * native samples are written by different paths, and JDK 25's sampled threads write their own),
   * so they are sorted by thread and time once the chunk is complete.
   */
  private final List<CpuSampleEvent> pending = new ArrayList<>();

  // By hand, not with Comparator.comparing: that makes a class at start-up (a serializable
  // lambda) that no class-data archive keeps.
  private static final java.util.Comparator<CpuSampleEvent> BY_THREAD_AND_TIME =
      (a, b) ->
          a.virtualThreadId() != b.virtualThreadId()
              ? Long.compare(a.virtualThreadId(), b.virtualThreadId())
              : Long.compare(a.startNanos(), b.startNanos());

  void chunk(long startNanos) {
    flush();
    if (chunkStart == Long.MIN_VALUE) {
      chunkStart = startNanos;
    }
  }

  void sample(CpuSampleEvent e) {
    samples++;
    if (e.nativeCode()) {
      nativeSamples++;
    }
    pending.add(e);
  }

  /** Puts the pending samples into runs, in order of thread and time. */
  private void flush() {
    if (pending.isEmpty()) {
      return;
    }
    pending.sort(BY_THREAD_AND_TIME);
    for (CpuSampleEvent e : pending) {
      inOrder(e);
    }
    pending.clear();
    sweep(latest);
  }

  private void inOrder(CpuSampleEvent e) {
    sampledThreads.add(e.virtualThreadId());
    long at = e.startNanos();
    latest = Math.max(latest, at);
    boolean spin = isSpin(e.stack());
    boolean file = inFileCall(e.stack());
    boolean loading = inClassLoading(e.stack());
    Run run = open.get(e.virtualThreadId());
    if (run != null && at - run.last > MAX_GAP_NANOS) {
      close(run);
      run = null;
    }
    if (run == null) {
      run = new Run(e.virtualThreadId(), at, e.stack());
      open.put(e.virtualThreadId(), run);
      if (chunkStart != Long.MIN_VALUE && at - chunkStart <= MAX_GAP_NANOS) {
        heads.put(e.virtualThreadId(), run);
      }
    }
    run.add(at, spin, file, loading);
  }

  void fileIo(FileIoEvent e) {
    fileIoDurations.add(e.durationNanos());
    fileIoThreads.add(e.virtualThreadId());
    fileIoSites.add(
        e.startNanos(),
        e.durationNanos(),
        e.virtualThreadId(),
        e.stack(),
        e.write() ? FILE_WRITE : FILE_READ,
        null,
        null);
  }

  void threadStart(ThreadStartEvent e) {
    if (e.stack().frames().isEmpty()) {
      return;
    }
    startsWithStacks++;
    if (isCompensation(e.stack())) {
      compensatedStarts++;
      compensationSites.add(e.startNanos(), 0, -1, e.stack(), COMPENSATION, null, null);
    }
  }

  /** Closes the runs no later sample can continue. */
  private void sweep(long now) {
    for (Iterator<Run> it = open.values().iterator(); it.hasNext(); ) {
      Run run = it.next();
      if (now - run.last > MAX_GAP_NANOS) {
        it.remove();
        close(run);
      }
    }
  }

  private void close(Run run) {
    if (heads.get(run.thread) == run) {
      return; // kept for the merge with the chunk before
    }
    count(run);
  }

  private void count(Run run) {
    runs++;
    long length = run.last - run.first;
    longestRunNanos = Math.max(longestRunNanos, length);
    if (length >= LONG_RUN_NANOS) {
      longRuns++;
      longRunNanos += length;
      runSites.add(run.first, length, run.thread, run.stack, run.kind(), null, null);
    }
  }

  /**
   * Ends this collector's own chunk: its runs that touch the chunk's start or were still open at
   * its end become pending, to be joined with the runs of neighbouring chunks when they are merged.
   * Merging seals both sides; sealing again changes nothing.
   */
  void seal() {
    flush();
    if (heads.isEmpty() && open.isEmpty()) {
      return;
    }
    java.util.Set<Run> sealed =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    sealed.addAll(heads.values());
    sealed.addAll(open.values());
    edgeRuns.addAll(sealed);
    heads.clear();
    open.clear();
    edgeRuns = joined(edgeRuns);
  }

  /**
   * Adds what {@code other} collected, from any chunk of the same recording, earlier or later, in
   * any order: runs that touch a chunk's edge stay pending until {@link #finished}, and pending
   * runs of one thread no more than {@link #MAX_GAP_NANOS} apart are one run. {@code other} keeps
   * what it holds (its runs are copied), so one chunk's collector can be merged into several.
   */
  void merge(CarrierWorkCollector other) {
    seal();
    other.seal();
    samples += other.samples;
    nativeSamples += other.nativeSamples;
    sampledThreads.addAll(other.sampledThreads, 0);
    runs += other.runs;
    longRuns += other.longRuns;
    longRunNanos += other.longRunNanos;
    longestRunNanos = Math.max(longestRunNanos, other.longestRunNanos);
    runSites.addAll(other.runSites);
    fileIoSites.addAll(other.fileIoSites);
    compensationSites.addAll(other.compensationSites);
    fileIoDurations.addAll(other.fileIoDurations);
    fileIoThreads.addAll(other.fileIoThreads, 0);
    compensatedStarts += other.compensatedStarts;
    startsWithStacks += other.startsWithStacks;
    latest = Math.max(latest, other.latest);
    List<Run> both = new ArrayList<>(edgeRuns.size() + other.edgeRuns.size());
    for (Run run : edgeRuns) {
      both.add(run.copy());
    }
    for (Run run : other.edgeRuns) {
      both.add(run.copy());
    }
    edgeRuns = joined(both);
  }

  /**
   * {@code runs} with the runs of one thread no more than a gap apart joined, by thread and time.
   */
  private static List<Run> joined(List<Run> runs) {
    runs.sort(
        (a, b) ->
            a.thread != b.thread
                ? Long.compare(a.thread, b.thread)
                : Long.compare(a.first, b.first));
    List<Run> result = new ArrayList<>(runs.size());
    Run current = null;
    for (Run run : runs) {
      if (current != null
          && current.thread == run.thread
          && run.first - current.last <= MAX_GAP_NANOS) {
        current.join(run);
      } else {
        current = run;
        result.add(run);
      }
    }
    return result;
  }

  /**
   * A collector with every run counted: nothing comes before or after what was collected. This one
   * is left as it is.
   */
  CarrierWorkCollector finished() {
    CarrierWorkCollector done = new CarrierWorkCollector();
    done.merge(this);
    for (Run run : done.edgeRuns) {
      done.count(run);
    }
    done.edgeRuns.clear();
    return done;
  }

  /** Whether a sample's thread was spinning: its innermost frames wait for something by looping. */
  static boolean isSpin(RecordedStack stack) {
    List<Frame> frames = stack.frames();
    for (int i = 0; i < Math.min(3, frames.size()); i++) {
      Frame f = frames.get(i);
      String c = f.className();
      String m = f.method();
      if (("java.lang.Thread".equals(c) && ("onSpinWait".equals(m) || "yield".equals(m)))
          || ("java.lang.VirtualThread".equals(c) && "tryYield".equals(m))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a sample's thread was in one of the JDK's blocking file calls. */
  static boolean inFileCall(RecordedStack stack) {
    List<Frame> frames = stack.frames();
    for (int i = 0; i < Math.min(6, frames.size()); i++) {
      if (isFileApi(frames.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a sample's thread was loading, linking or initialising classes. */
  static boolean inClassLoading(RecordedStack stack) {
    for (Frame f : stack.frames()) {
      String c = f.className();
      String m = f.method();
      if ((c.equals("java.lang.ClassLoader") && (m.equals("loadClass") || m.startsWith("define")))
          || c.startsWith("jdk.internal.loader.")
          || c.equals("java.lang.Class") && m.startsWith("forName")
          || m.equals("<clinit>")) {
        return true;
      }
    }
    return false;
  }

  /** A frame of the JDK's blocking file APIs. */
  static boolean isFileApi(Frame f) {
    String c = f.className();
    return c.equals("java.io.RandomAccessFile")
        || c.equals("java.io.FileInputStream")
        || c.equals("java.io.FileOutputStream")
        || c.equals("java.io.FileDescriptor")
        || c.equals("sun.nio.ch.FileChannelImpl")
        || c.equals("sun.nio.ch.FileDispatcherImpl")
        || c.equals("sun.nio.ch.UnixFileDispatcherImpl")
        || c.startsWith("sun.nio.fs.UnixNativeDispatcher")
        || c.startsWith("sun.nio.fs.UnixFileSystemProvider")
        || c.equals("java.nio.file.Files");
  }

  /** Whether a thread was started by the pool's compensation for a blocking call. */
  static boolean isCompensation(RecordedStack stack) {
    for (Frame f : stack.frames()) {
      if ("java.util.concurrent.ForkJoinPool".equals(f.className())
          && ("tryCompensate".equals(f.method()) || "compensatedBlock".equals(f.method()))) {
        return true;
      }
    }
    return false;
  }
}
