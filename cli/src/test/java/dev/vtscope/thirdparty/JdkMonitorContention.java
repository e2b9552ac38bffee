package dev.vtscope.thirdparty;

import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * Virtual threads register sessions in one {@link Hashtable}, whose methods are synchronized, with
 * keys whose {@code hashCode} is slow (a remote lookup, say). On JDK 21 the thread inside {@code
 * put} pins its carrier, and the others wait to enter the JDK's monitor in {@code Hashtable.put}:
 * the monitor is the JDK's, the line to change is this program's.
 */
public final class JdkMonitorContention {

  private JdkMonitorContention() {}

  /** A key that takes a while to hash. */
  record SlowKey(int id) {
    @Override
    public int hashCode() {
      try {
        Thread.sleep(30);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return id;
    }
  }

  public static void main(String[] args) {
    int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    Map<SlowKey, String> sessions = new Hashtable<>();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < tasks; i++) {
        int id = i;
        executor.submit(() -> register(sessions, id));
      }
    }
  }

  static void register(Map<SlowKey, String> sessions, int id) {
    sessions.put(new SlowKey(id), "session " + id);
  }
}
