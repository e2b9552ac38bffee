package dev.vtscope.analysis;

import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.JfrFileReader;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What a recording's summary keeps, for bench/summary-heap.sh: reads one file into one summary as
 * vtscope's reader does (chunks in parallel, without the reader's time limit, which a file of
 * millions of pins can pass on a busy machine), sweeps the carriers held at once, prints "ready",
 * the pinned events and the chunks, and waits with the summary reachable while the script takes
 * a heap histogram (a full collection: what is left is what the summary holds, plus the JVM's own).
 * In vtscope's package, as the summary's builder is not public; compiled against the jar measured.
 */
public final class SummaryHeap {

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    SummaryBuilder builder = new SummaryBuilder();
    try (JfrFileReader reader =
        new JfrFileReader(Duration.ofHours(1), Runtime.getRuntime().availableProcessors())) {
      reader.read(file, ChunkScanner.scan(file), builder);
    }
    RecordingSummary summary = RecordingSummary.of(builder);
    int peak = summary.carriersHeld(true).pinned().peak();
    System.out.println(
        "ready " + summary.pinnedEvents() + " pinned events, " + summary.chunks() + " chunks, peak "
            + peak);
    Thread.sleep(600_000);
    System.out.println(summary.chunks()); // reachable until the histogram is taken
  }
}
