package dev.vtscope.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A program for the attribution tests, run in a child JVM under JFR: virtual threads update one
 * entry of a {@link ConcurrentHashMap} with {@code compute}, whose function sleeps. The map holds
 * the entry's bin monitor while the function runs, so on JDK 21-23 every sleep pins its carrier in
 * JDK code ({@code ConcurrentHashMap.compute}), reached from this program.
 */
public final class JdkMonitorProgram {

  private static final ConcurrentHashMap<String, Integer> CACHE = new ConcurrentHashMap<>();

  private JdkMonitorProgram() {}

  public static void main(String[] args) throws Exception {
    CACHE.put("profile", 0);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      threads.add(Thread.ofVirtual().start(JdkMonitorProgram::refresh));
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  private static void refresh() {
    CACHE.compute("profile", (key, old) -> load(old));
  }

  private static Integer load(Integer old) {
    try {
      Thread.sleep(30); // a slow load, inside the map's monitor
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return old == null ? 1 : old + 1;
  }
}
