package dev.vtscope.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;

/**
 * Runs a second recording beside the one of the command line, as a profiler started with {@code
 * jcmd JFR.start} would: it records every pin (threshold 0) while the first keeps its own
 * threshold. Virtual threads then pin for about a millisecond each, 40 times (a {@code
 * synchronized} sleep, which pins on JDK 21-23).
 */
public final class TwoRecordingsProgram {

  private static final Object LOCK = new Object();

  private TwoRecordingsProgram() {}

  public static void main(String[] args) throws Exception {
    try (Recording everyPin = new Recording()) {
      everyPin.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      everyPin.start();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        threads.add(Thread.ofVirtual().start(TwoRecordingsProgram::pin));
      }
      for (Thread thread : threads) {
        thread.join();
      }
      everyPin.stop();
    }
  }

  private static void pin() {
    synchronized (LOCK) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
