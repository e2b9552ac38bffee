package dev.vtscope.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * vtscope's own JFR reader, the default for files and folders. Each chunk is decoded from its own
 * bytes by a {@link ChunkDecoder}; the chunks of a file are decoded in parallel on every core and
 * their events handed to the listener in recording order. A few chunks are in flight at a time;
 * each worker reads its chunk into one buffer of its own, reused from chunk to chunk, so memory is
 * bounded by the chunk size and the core count, not by the file's size.
 */
public final class JfrFileReader implements RecordingReader, AutoCloseable {

  /** Chunks larger than this are mapped rather than read into a worker's buffer. */
  private static final long READ_LIMIT = 64L << 20;

  /**
   * Each worker's buffer, outside the heap: a channel reads into it without the temporary copy a
   * heap buffer needs, and it is reused for every chunk that worker decodes.
   */
  private final ThreadLocal<ByteBuffer> buffers = new ThreadLocal<>();

  private final Duration timeLimit;
  private final ExecutorService workers;
  private final int parallelism;

  /** A reader that gives a file 10 s plus 10 s per gigabyte before it gives up. */
  public JfrFileReader() {
    this(Duration.ofSeconds(10), Runtime.getRuntime().availableProcessors());
  }

  /**
   * @param timeLimit how long a file may take, plus as much again per gigabyte, before reading
   *     stops with a note
   * @param parallelism how many chunks are decoded at once
   */
  public JfrFileReader(Duration timeLimit, int parallelism) {
    this.timeLimit = timeLimit;
    this.parallelism = Math.max(1, parallelism);
    this.workers =
        Executors.newFixedThreadPool(
            this.parallelism, Thread.ofPlatform().daemon().name("vtscope-chunk-", 0).factory());
  }

  @Override
  public ReadOutcome read(Path file, ChunkScan scan, RecordingListener listener)
      throws IOException {
    List<ChunkHeader> chunks = scan.chunks();
    long deadline =
        System.nanoTime()
            + timeLimit.toNanos()
            + timeLimit.toNanos() * Math.max(0, scan.fileSize() >> 30);
    List<String> notes = new ArrayList<>();
    long dangling = 0;
    long notYetWritten = 0;
    long unknown = 0;
    int read = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      Deque<Future<ChunkDecoder.Result>> inFlight = new ArrayDeque<>();
      int next = 0;
      try {
        for (int i = 0; i < chunks.size(); i++) {
          while (next < chunks.size() && inFlight.size() <= parallelism) {
            ChunkHeader chunk = chunks.get(next++);
            inFlight.add(workers.submit(() -> decode(channel, chunk, deadline)));
          }
          ChunkHeader chunk = chunks.get(i);
          ChunkDecoder.Result result = await(inFlight.removeFirst());
          if (result.failure() == null) {
            listener.chunk(chunk);
          }
          for (Consumer<RecordingListener> event : result.events()) {
            event.accept(listener);
          }
          if (chunk.inProgress()) {
            // a chunk being written refers to constants the JVM writes at a later flush
            notYetWritten += result.danglingReferences();
          } else {
            dangling += result.danglingReferences();
          }
          unknown += result.unknownTypes();
          if (result.failure() != null) {
            String failure =
                "chunk "
                    + (chunk.index() + 1)
                    + (result.failureOffset() >= 0
                        ? " is damaged at byte "
                            + (chunk.fileOffset() + result.failureOffset())
                            + ": "
                            + result.failure()
                            + " (corrupt)"
                        : " " + result.failure());
            addDamageNotes(notes, dangling, unknown);
            return new ReadOutcome(
                read,
                "reading stopped inside chunk "
                    + (chunk.index() + 1)
                    + " of "
                    + chunks.size()
                    + ": "
                    + failure
                    + "; events read before that point are included",
                failure,
                notes);
          }
          read++;
        }
      } finally {
        inFlight.forEach(f -> f.cancel(true));
      }
    }
    String live = RecordedFacts.inProgressNote(scan);
    if (live != null) {
      notes.add(
          live
              + (notYetWritten > 0
                  ? "; "
                      + notYetWritten
                      + " reference(s) in it to threads, stacks or names the JVM had not written"
                      + " yet are shown as missing"
                  : ""));
    }
    addDamageNotes(notes, dangling, unknown);
    return new ReadOutcome(read, null, null, notes);
  }

  private static void addDamageNotes(List<String> notes, long dangling, long unknown) {
    if (dangling > 0) {
      notes.add(
          dangling
              + " reference(s) to constants the recording does not hold (damaged?): the stacks,"
              + " threads or names they point to are shown as missing");
    }
    if (unknown > 0) {
      notes.add(
          unknown
              + " record(s) of event types the recording does not declare were skipped (damaged?)");
    }
  }

  private static ChunkDecoder.Result await(Future<ChunkDecoder.Result> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(
          "the chunk could not be decoded (" + cause.getClass().getSimpleName() + ")", cause);
    }
  }

  private ChunkDecoder.Result decode(FileChannel channel, ChunkHeader chunk, long deadline)
      throws IOException {
    if (chunk.size() > Integer.MAX_VALUE) {
      return new ChunkDecoder.Result(
          List.of(),
          "is larger than 2 GB, which this reader cannot hold (try --reader jdk)",
          -1,
          0,
          0);
    }
    int size = (int) chunk.size();
    ByteBuffer bytes;
    if (size <= READ_LIMIT) {
      bytes = buffer(size);
      while (bytes.hasRemaining()) {
        int n = channel.read(bytes, chunk.fileOffset() + bytes.position());
        if (n < 0) {
          return new ChunkDecoder.Result(
              List.of(), "ends early: the file shrank while it was read", bytes.position(), 0, 0);
        }
      }
      bytes.flip();
    } else {
      bytes = channel.map(FileChannel.MapMode.READ_ONLY, chunk.fileOffset(), size);
    }
    return new ChunkDecoder(bytes, size, deadline).decode();
  }

  /** This worker's buffer, cleared and limited to {@code size} bytes, grown when too small. */
  private ByteBuffer buffer(int size) {
    ByteBuffer buffer = buffers.get();
    if (buffer == null || buffer.capacity() < size) {
      int capacity =
          (int)
              Math.min(
                  READ_LIMIT, Math.max(size, (buffer == null ? 0 : buffer.capacity()) * 3L / 2));
      buffer = ByteBuffer.allocateDirect(capacity);
      buffers.set(buffer);
    }
    return buffer.clear().limit(size);
  }

  @Override
  public boolean needsRecordCheck() {
    return false;
  }

  @Override
  public String name() {
    return "vtscope";
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }
}
