package dev.vtscope.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A program for the advice tests, run in a child JVM under JFR: inside ConcurrentHashMap.compute,
 * whose bin monitor the map holds, the function enters a synchronized block of its own and sleeps,
 * as a cache library's loader inside a map's compute does. On JDK 21-23 the carrier stays pinned
 * until both monitors are released.
 */
public final class NestedMonitorProgram {

  private static final ConcurrentHashMap<String, Integer> CACHE = new ConcurrentHashMap<>();
  private static final Object LOADER_LOCK = new Object();

  private NestedMonitorProgram() {}

  public static void main(String[] args) throws Exception {
    CACHE.put("profile", 0);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      threads.add(Thread.ofVirtual().start(() -> CACHE.compute("profile", (k, v) -> load(v))));
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  private static Integer load(Integer old) {
    synchronized (LOADER_LOCK) {
      try {
        Thread.sleep(30);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return old == null ? 1 : old + 1;
    }
  }
}
