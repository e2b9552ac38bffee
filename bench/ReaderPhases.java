package dev.vtscope.recording;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reader's passes over a recording, then the whole analysis, timed in one process: {@code walk}
 * compacts every chunk (the record walk, which keeps the wanted events), {@code read} also decodes
 * them (the constants indexed, every kept event made, then dropped), both on one thread; {@code
 * analyze} is what {@code vtscope analyze} does but for the report (reading on the reader's threads,
 * the summaries, attribution).
 *
 *   java [the launcher's JVM flags] -cp VTSCOPE_JAR:CLASSES dev.vtscope.recording.ReaderPhases \
 *       walk|read|analyze FILE PASSES
 *
 * prints each pass's milliseconds and the events kept. One thread and many passes give figures that
 * vary less than a whole command's on a shared machine; bench/reader-phases.sh compares two builds
 * with it. It sits in the reader's package to reach its classes: it is a benchmark of them, not of
 * the command.
 */
public final class ReaderPhases {

  public static void main(String[] args) throws Exception {
    if (!java.util.Set.of("walk", "read", "analyze").contains(args[0])) {
      throw new IllegalArgumentException("walk, read or analyze, not " + args[0]);
    }
    boolean decode = args[0].equals("read");
    Path file = Path.of(args[1]);
    int passes = Integer.parseInt(args[2]);
    if (args[0].equals("analyze")) {
      for (int pass = 0; pass < passes; pass++) {
        long start = System.nanoTime();
        dev.vtscope.analysis.Analysis analysis =
            new dev.vtscope.analysis.Analyzer(
                    new JfrFileReader(),
                    dev.vtscope.analysis.AnalysisOptions.of(dev.vtscope.analysis.GroupBy.CULPRIT))
                .analyze(java.util.List.of(new RecordingInput(file.toString(), java.util.List.of(file), false, null)));
        System.out.printf(
            "%d ms, %d pinned%n",
            (System.nanoTime() - start) / 1_000_000,
            analysis.pinned().events());
      }
      return;
    }
    ChunkScan scan = ChunkScanner.scan(file, false);
    RecordingListener drop = new RecordingListener() {};
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer window = ByteBuffer.allocate(1 << 20);
      for (int pass = 0; pass < passes; pass++) {
        long start = System.nanoTime();
        long kept = 0;
        MetadataCache metadata = new MetadataCache();
        ConcurrentHashMap<Frame, Frame> frames = new ConcurrentHashMap<>();
        for (ChunkHeader chunk : scan.chunks()) {
          if (chunk.inProgress()) {
            continue;
          }
          ChunkCompactor.Compacted compacted =
              new ChunkCompactor(channel, chunk, chunk.size(), window, Long.MAX_VALUE, metadata)
                  .compact(ChunkDecoder.WANTED_EVENTS);
          kept += compacted.records();
          if (decode && compacted.failure() == null) {
            new ChunkDecoder(compacted, window, Long.MAX_VALUE, frames).decode(drop);
          }
        }
        System.out.printf("%d ms, %d records kept%n", (System.nanoTime() - start) / 1_000_000, kept);
      }
    }
  }
}
