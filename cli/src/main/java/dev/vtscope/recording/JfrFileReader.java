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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * vtscope's own JFR reader, the default for files and folders. Each chunk is decoded from its own
 * bytes by a {@link ChunkDecoder}; the chunks of a file are decoded in parallel on every core and
 * their events handed to the listener in recording order. A few chunks are in flight at a time;
 * each worker streams its chunk through a small window and keeps only the metadata, the constant
 * pools and the events vtscope reads, so memory depends on those, not on the size of the chunks or
 * of the file.
 */
public final class JfrFileReader implements RecordingReader, AutoCloseable {

  /** The window each worker streams its chunks through. */
  private static final int WINDOW = 1 << 20;

  /**
   * Windows free for the next chunk: a chunk is streamed through one and only the records vtscope
   * decodes are kept ({@link ChunkCompactor}). There are never more than chunks in flight.
   */
  private final java.util.concurrent.ConcurrentLinkedQueue<ByteBuffer> windows =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  private final MetadataCache metadataCache = new MetadataCache();

  /** Frames decoded so far, shared by every chunk's decoder: each distinct frame is held once. */
  private final Map<Frame, Frame> frames = new ConcurrentHashMap<>();

  private final Duration timeLimit;
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
    List<String> skipped = new ArrayList<>();
    List<ChunkHeader> untouched = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      // The workers live as long as this read: nothing stays behind when the reader is dropped.
      // Named with a counter of its own: Thread.ofPlatform().name(prefix, 0) makes a class at
      // start-up that no class-data archive keeps.
      java.util.concurrent.atomic.AtomicInteger named =
          new java.util.concurrent.atomic.AtomicInteger();
      ExecutorService workers =
          Executors.newFixedThreadPool(
              parallelism,
              task -> {
                Thread worker = new Thread(task, "vtscope-chunk-" + named.getAndIncrement());
                worker.setDaemon(true);
                return worker;
              });
      Deque<Future<Decoded>> inFlight = new ArrayDeque<>();
      // A listener that works per chunk takes each chunk's events on the decoding thread.
      ChunkedListener chunked = listener instanceof ChunkedListener c ? c : null;
      int next = 0;
      try {
        for (int i = 0; i < chunks.size(); i++) {
          while (next < chunks.size() && inFlight.size() <= parallelism) {
            ChunkHeader chunk = chunks.get(next++);
            inFlight.add(workers.submit(() -> decodeAndCollect(channel, chunk, deadline, chunked)));
          }
          ChunkHeader chunk = chunks.get(i);
          Decoded decoded = await(inFlight.removeFirst());
          ChunkDecoder.Result result = decoded.result();
          if (result.failure() != null) {
            // Chunks are self-contained: a damaged one is skipped whole and the others are read.
            untouched.add(chunk);
            skipped.add(
                "chunk "
                    + (chunk.index() + 1)
                    + (result.failureOffset() >= 0
                        ? " is damaged at byte "
                            + (chunk.fileOffset() + result.failureOffset())
                            + ": "
                            + result.failure()
                            + " (corrupt)"
                        : " " + result.failure()));
            continue;
          }
          if (decoded.collected() != null) {
            chunked.merge(decoded.collected());
          } else {
            listener.chunk(chunk);
            for (Consumer<RecordingListener> event : result.events()) {
              event.accept(listener);
            }
          }
          if (chunk.inProgress()) {
            // a chunk being written refers to constants the JVM writes at a later flush
            notYetWritten += result.danglingReferences();
          } else {
            dangling += result.danglingReferences();
          }
          unknown += result.unknownTypes();
          read++;
        }
      } finally {
        inFlight.forEach(f -> f.cancel(true));
        workers.shutdownNow();
      }
    }
    String live = RecordedFacts.inProgressNote(scan);
    if (live != null) {
      notes.add(
          live
              + (notYetWritten > 0
                  ? "; "
                      + Counted.of(notYetWritten, "reference")
                      + " in it to threads, stacks or names the JVM had not written yet "
                      + (notYetWritten == 1 ? "is" : "are")
                      + " shown as missing"
                  : ""));
    }
    addDamageNotes(notes, dangling, unknown);
    if (!skipped.isEmpty()) {
      return new ReadOutcome(
          read,
          String.join("; ", skipped)
              + "; skipped "
              + skipped.size()
              + " of "
              + Counted.of(chunks.size(), "chunk")
              + (read == 1 ? ", the other 1 is included" : ", the other " + read + " are included"),
          skipped.get(0),
          notes,
          untouched);
    }
    return new ReadOutcome(read, null, null, notes);
  }

  /** What was skipped or shown as missing as damage; package-private for its test. */
  static void addDamageNotes(List<String> notes, long dangling, long unknown) {
    if (dangling > 0) {
      notes.add(
          Counted.of(dangling, "reference")
              + " to constants the recording does not hold (damaged?): the "
              + (dangling == 1
                  ? "stack, thread or name it points to is"
                  : "stacks, threads or names they point to are")
              + " shown as missing");
    }
    if (unknown > 0) {
      notes.add(
          Counted.of(unknown, "record")
              + " of event types the recording does not declare "
              + (unknown == 1 ? "was" : "were")
              + " skipped (damaged?)");
    }
  }

  /** A decoded chunk, and the chunk listener that took its events when there is one. */
  private record Decoded(ChunkDecoder.Result result, RecordingListener collected) {}

  private Decoded decodeAndCollect(
      FileChannel channel, ChunkHeader chunk, long deadline, ChunkedListener chunked)
      throws IOException {
    // the chunk's listener takes its events as they are decoded; a chunk that fails is dropped
    RecordingListener collected = chunked == null ? null : chunked.newChunk();
    if (collected != null) {
      collected.chunk(chunk);
    }
    ChunkDecoder.Result result = decode(channel, chunk, deadline, collected);
    if (collected == null || result.failure() != null) {
      return new Decoded(result, null);
    }
    chunked.chunkTaken(collected);
    return new Decoded(result, collected);
  }

  private static Decoded await(Future<Decoded> future) throws IOException {
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
      if (cause instanceof OutOfMemoryError oom) {
        throw oom; // the heap, not the file: the command says so
      }
      throw new IOException(
          "the chunk could not be decoded (" + cause.getClass().getSimpleName() + ")", cause);
    }
  }

  private ChunkDecoder.Result decode(
      FileChannel channel, ChunkHeader chunk, long deadline, RecordingListener into)
      throws IOException {
    ByteBuffer window = windows.poll();
    if (window == null) {
      window = ByteBuffer.allocate(WINDOW);
    }
    try {
      return decode(channel, chunk, deadline, window, into);
    } finally {
      windows.add(window);
    }
  }

  private ChunkDecoder.Result decode(
      FileChannel channel,
      ChunkHeader chunk,
      long deadline,
      ByteBuffer window,
      RecordingListener into)
      throws IOException {
    ChunkCompactor.Compacted kept =
        new ChunkCompactor(channel, chunk, chunk.size(), window, deadline, metadataCache)
            .compact(ChunkDecoder.WANTED_EVENTS);
    if (kept.failure() != null) {
      return new ChunkDecoder.Result(
          List.of(), kept.failure(), kept.failureOffset(), 0, kept.unknownTypes());
    }
    // the compactor is done with the window: the decoder reads the checkpoints through it
    ChunkDecoder.Result result = new ChunkDecoder(kept, window, deadline, frames).decode(into);
    return new ChunkDecoder.Result(
        result.events(),
        result.failure(),
        result.failureOffset(),
        result.danglingReferences(),
        result.unknownTypes() + kept.unknownTypes());
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
    windows.clear();
  }
}
