package dev.vtscope.recording;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.EventType;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Reads a recording with the JDK's {@code EventStream}, one handler per event type, so memory does
 * not grow with the number of events. A file of one chunk is streamed as it is; a file of several
 * chunks is streamed chunk by chunk from temporary copies, because the JDK's reader can confuse the
 * metadata of chunks written by different JVMs and because a damaged chunk must not hide the ones
 * before it. Each chunk is parsed on a watchdog thread: the JDK's parser can loop forever on some
 * damaged records.
 */
public final class JfrStreamReader implements RecordingReader {

  private static final int STACK_CACHE_LIMIT = 50_000;

  private final Duration baseTimeout;

  /** A reader whose watchdog allows a chunk 60 s plus 2 s per megabyte. */
  public JfrStreamReader() {
    this(Duration.ofSeconds(60));
  }

  /** A reader whose watchdog allows a chunk {@code baseTimeout} plus 2 s per megabyte. */
  public JfrStreamReader(Duration baseTimeout) {
    this.baseTimeout = baseTimeout;
  }

  @Override
  public String name() {
    return "jdk";
  }

  @Override
  public ReadOutcome read(Path file, ChunkScan scan, RecordingListener listener)
      throws IOException {
    List<ChunkHeader> chunks = scan.chunks();
    List<String> notes = new ArrayList<>();
    String live = RecordedFacts.inProgressNote(scan);
    if (live != null) {
      notes.add(live);
    }
    if (chunks.size() == 1
        && scan.complete()
        && !chunks.get(0).inProgress()
        && chunks.get(0).size() == scan.fileSize()) { // the file is that chunk and nothing else
      listener.chunk(chunks.get(0));
      String failure = parse(file, chunks.get(0).size(), listener);
      return new ReadOutcome(
          failure == null ? 1 : 0, describe(failure, chunks.get(0), chunks.size()), failure, notes);
    }
    int read = 0;
    for (ChunkHeader chunk : chunks) {
      listener.chunk(chunk);
      Path copy = copyChunk(file, chunk);
      String failure;
      try {
        failure = parse(copy, chunk.size(), listener);
      } finally {
        Files.deleteIfExists(copy);
      }
      if (failure != null) {
        // this chunk's events up to the damage have been delivered; the later ones are untouched
        return new ReadOutcome(
            read,
            describe(failure, chunk, chunks.size()),
            failure,
            notes,
            chunks.subList(read + 1, chunks.size()));
      }
      read++;
    }
    return new ReadOutcome(read, null, null, notes);
  }

  private static String describe(String failure, ChunkHeader chunk, int chunkCount) {
    if (failure == null) {
      return null;
    }
    return "reading stopped inside chunk "
        + (chunk.index() + 1)
        + " of "
        + chunkCount
        + " (at byte "
        + chunk.fileOffset()
        + "): "
        + failure
        + "; events read before that point are included";
  }

  private static Path copyChunk(Path file, ChunkHeader chunk) throws IOException {
    Path copy = Files.createTempFile("vtscope-chunk-", ".jfr");
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(copy, StandardOpenOption.WRITE)) {
      long position = chunk.fileOffset();
      long remaining = chunk.size();
      while (remaining > 0) {
        long n = in.transferTo(position, remaining, out);
        if (n <= 0) {
          throw new IOException("could not copy chunk " + (chunk.index() + 1));
        }
        position += n;
        remaining -= n;
      }
      if (chunk.inProgress()) {
        // The JDK's reader waits for a chunk still being written to finish; the copy, which holds
        // the chunk up to its last flush, is marked finished so it reads that much.
        out.write(java.nio.ByteBuffer.wrap(new byte[] {0}), 64);
      }
    }
    return copy;
  }

  /** Parses one file of whole chunks; returns null on success or what went wrong. */
  private String parse(Path file, long size, RecordingListener listener) {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Handlers handlers = new Handlers(listener);
    Thread worker =
        Thread.ofPlatform()
            .daemon()
            .name("vtscope-reader")
            .unstarted(
                () -> {
                  try (EventStream stream = EventStream.openFile(file)) {
                    handlers.register(stream);
                    stream.start();
                  } catch (Throwable t) {
                    failure.set(t);
                  }
                });
    worker.start();
    Duration allowed = baseTimeout.plusSeconds(2 * Math.max(1, size >> 20));
    try {
      if (!worker.join(allowed)) {
        return "the JDK's JFR reader made no progress for "
            + allowed.toSeconds()
            + " s (damaged record?)";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
    Throwable t = failure.get();
    if (t instanceof OutOfMemoryError oom) {
      throw oom; // the heap, not the file: the command says so
    }
    if (t == null) {
      // The JDK's stream can end quietly on damaged metadata; without metadata nothing was read.
      return handlers.metadataSeen ? null : "its metadata could not be read (damaged)";
    }
    String message = t.getMessage();
    return "the JDK's JFR reader failed ("
        + t.getClass().getSimpleName()
        + (message == null || message.isBlank() ? "" : ": " + firstLine(message))
        + ")";
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /** The per-event-type handlers for one stream; holds the caches that live as long as it. */
  static final class Handlers {
    private final RecordingListener listener;
    private final Map<Long, String> eventTypeNames = new HashMap<>();
    private final Map<RecordedStackTrace, RecordedStack> stacks = new IdentityHashMap<>();
    private volatile boolean metadataSeen;

    Handlers(RecordingListener listener) {
      this.listener = listener;
    }

    void register(EventStream stream) {
      stream.setReuse(false);
      stream.setOrdered(false);
      stream.onMetadata(
          metadata -> {
            metadataSeen = true;
            // the settings of the event types read, as the file reader gives them: those of
            // other types say nothing the analysis uses
            for (EventType type : metadata.getEventTypes()) {
              if (ChunkDecoder.WANTED_EVENTS.contains(type.getName())) {
                eventTypeNames.put(type.getId(), type.getName());
              }
            }
          });
      stream.onEvent("jdk.VirtualThreadPinned", this::pinned);
      stream.onEvent("jdk.VirtualThreadSubmitFailed", this::submitFailed);
      stream.onEvent("jdk.JavaMonitorEnter", e -> monitor(e, MonitorEvent.Kind.ENTER));
      stream.onEvent("jdk.JavaMonitorWait", e -> monitor(e, MonitorEvent.Kind.WAIT));
      stream.onEvent("jdk.ThreadStart", this::threadStart);
      stream.onEvent("jdk.ExecutionSample", e -> cpuSample(e, false));
      stream.onEvent("jdk.NativeMethodSample", e -> cpuSample(e, true));
      stream.onEvent("jdk.FileRead", e -> fileIo(e, false));
      stream.onEvent("jdk.FileWrite", e -> fileIo(e, true));
      stream.onEvent("jdk.JVMInformation", this::jvm);
      stream.onEvent("jdk.CPUInformation", this::cpu);
      stream.onEvent("jdk.ContainerConfiguration", this::container);
      stream.onEvent(
          "jdk.InitialSystemProperty",
          e -> listener.systemProperty(e.getString("key"), e.getString("value")));
      stream.onEvent("jdk.ActiveSetting", this::setting);
      stream.onEvent("jdk.StringFlag", this::stringFlag);
      stream.onEvent("jdk.ThreadDump", this::threadDump);
    }

    private void threadDump(RecordedEvent e) {
      String text = stringField(e, "result");
      if (text != null) {
        listener.threadDump(new ThreadDumpEvent(nanos(e.getStartTime()), text));
      }
    }

    private void pinned(RecordedEvent e) {
      listener.pinned(
          new PinnedEvent(
              nanos(e.getStartTime()),
              e.getDuration().toNanos(),
              threadId(e, "eventThread"),
              stack(e),
              stringField(e, "pinnedReason"),
              stringField(e, "blockingOperation"),
              threadName(e, "carrierThread")));
    }

    private void submitFailed(RecordedEvent e) {
      long id = e.hasField("javaThreadId") ? e.getLong("javaThreadId") : threadId(e, "eventThread");
      listener.submitFailed(
          new SubmitFailedEvent(
              nanos(e.getStartTime()), id, stringField(e, "exceptionMessage"), stack(e)));
    }

    private void monitor(RecordedEvent e, MonitorEvent.Kind kind) {
      RecordedThread thread = e.getThread();
      if (thread == null || !thread.isVirtual()) {
        return;
      }
      RecordedClass monitorClass = e.hasField("monitorClass") ? e.getClass("monitorClass") : null;
      listener.monitor(
          new MonitorEvent(
              kind,
              nanos(e.getStartTime()),
              e.getDuration().toNanos(),
              thread.getJavaThreadId(),
              monitorClass == null ? null : monitorClass.getName(),
              stack(e)));
    }

    private void threadStart(RecordedEvent e) {
      RecordedThread thread = e.hasField("thread") ? e.getThread("thread") : null;
      if (thread == null || thread.isVirtual()) {
        return;
      }
      listener.threadStart(
          new ThreadStartEvent(
              nanos(e.getStartTime()),
              thread.getJavaName(),
              thread.getThreadGroup() == null ? null : thread.getThreadGroup().getName(),
              stack(e)));
    }

    private void cpuSample(RecordedEvent e, boolean nativeCode) {
      RecordedThread thread = e.hasField("sampledThread") ? e.getThread("sampledThread") : null;
      if (thread == null || !thread.isVirtual()) {
        return;
      }
      listener.cpuSample(
          new CpuSampleEvent(
              nanos(e.getStartTime()), thread.getJavaThreadId(), nativeCode, stack(e)));
    }

    private void fileIo(RecordedEvent e, boolean write) {
      RecordedThread thread = e.getThread();
      if (thread == null || !thread.isVirtual()) {
        return;
      }
      String bytesField = write ? "bytesWritten" : "bytesRead";
      listener.fileIo(
          new FileIoEvent(
              nanos(e.getStartTime()),
              e.getDuration().toNanos(),
              thread.getJavaThreadId(),
              write,
              e.hasField(bytesField) ? e.getLong(bytesField) : -1,
              stack(e)));
    }

    private void jvm(RecordedEvent e) {
      Instant started = e.hasField("jvmStartTime") ? e.getInstant("jvmStartTime") : null;
      listener.jvm(
          RecordedFacts.jvm(
              stringField(e, "jvmName"),
              stringField(e, "jvmVersion"),
              started == null ? 0 : nanos(started),
              e.hasField("pid") ? e.getLong("pid") : -1));
    }

    private void cpu(RecordedEvent e) {
      int threads = e.hasField("hwThreads") ? (int) e.getLong("hwThreads") : 0;
      listener.cpu(new CpuFacts(threads, 0, stringField(e, "cpu")));
    }

    private void container(RecordedEvent e) {
      if (e.hasField("effectiveCpuCount")) {
        listener.cpu(new CpuFacts(0, (int) e.getLong("effectiveCpuCount"), null));
      }
    }

    private void setting(RecordedEvent e) {
      String type = eventTypeNames.get(e.getLong("id"));
      if (type != null) {
        listener.setting(new EventSetting(type, e.getString("name"), e.getString("value")));
      }
    }

    /**
     * {@code -XX:FlightRecorderOptions} is the one place a recording states its stack depth;
     * without a {@code stackdepth} there, the JVM's default of 64 applied.
     */
    private void stringFlag(RecordedEvent e) {
      if ("FlightRecorderOptions".equals(stringField(e, "name"))) {
        listener.stackDepth(RecordedFacts.stackDepth(stringField(e, "value")));
      }
    }

    private RecordedStack stack(RecordedEvent e) {
      RecordedStackTrace trace = e.getStackTrace();
      if (trace == null) {
        return RecordedStack.EMPTY;
      }
      RecordedStack known = stacks.get(trace);
      if (known != null) {
        return known;
      }
      List<RecordedFrame> recorded = trace.getFrames();
      List<Frame> frames = new ArrayList<>(recorded.size());
      for (RecordedFrame f : recorded) {
        frames.add(frame(f));
      }
      RecordedStack stack = new RecordedStack(frames, trace.isTruncated());
      if (stacks.size() >= STACK_CACHE_LIMIT) {
        stacks.clear();
      }
      stacks.put(trace, stack);
      return stack;
    }

    private static Frame frame(RecordedFrame f) {
      RecordedMethod method = f.getMethod();
      RecordedClass type = method == null ? null : method.getType();
      return new Frame(
          type == null ? "<unknown>" : type.getName(),
          method == null ? "<unknown>" : method.getName(),
          method == null ? "" : method.getDescriptor(),
          f.getLineNumber(),
          f.getBytecodeIndex(),
          f.getType(),
          method == null ? 0 : method.getModifiers(),
          loaderKind(type));
    }

    private static Frame.ClassLoaderKind loaderKind(RecordedClass type) {
      RecordedClassLoader loader = type == null ? null : type.getClassLoader();
      return RecordedFacts.loaderKind(
          type != null, loader != null, loader == null ? null : loader.getName());
    }

    private static long threadId(RecordedEvent e, String field) {
      if (!e.hasField(field)) {
        return -1;
      }
      RecordedThread thread = e.getThread(field);
      return thread == null ? -1 : thread.getJavaThreadId();
    }

    private static String threadName(RecordedEvent e, String field) {
      if (!e.hasField(field)) {
        return null;
      }
      RecordedThread thread = e.getThread(field);
      return thread == null ? null : thread.getJavaName();
    }

    private static String stringField(RecordedEvent e, String field) {
      return e.hasField(field) ? e.getString(field) : null;
    }

    private static long nanos(Instant instant) {
      return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
  }
}
