package dev.vtscope.testing;

import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;

/**
 * A program for the reader tests, run in a child JVM under JFR: virtual threads pin their carrier
 * (a {@code synchronized} sleep, which pins on JDK 21-23) at the bottom of deep recursions, in
 * several rounds; each round starts and stops a second recording, which makes the JVM start a new
 * chunk, so the recording has several chunks of one JVM. Run it with a long system property to put
 * a long string in the recording.
 */
public final class DeepStacksProgram {

  private static final Object LOCK = new Object();

  private DeepStacksProgram() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    for (int round = 0; round < rounds; round++) {
      try (Recording rotate = new Recording()) {
        rotate.start();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          int depth = 40 + round * 60 + t * 7;
          threads.add(Thread.ofVirtual().start(() -> recurse(depth)));
        }
        for (Thread thread : threads) {
          thread.join();
        }
        rotate.stop();
      }
    }
  }

  private static void recurse(int depth) {
    if (depth > 0) {
      recurse(depth - 1);
      return;
    }
    synchronized (LOCK) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
