package dev.vtscope.testing;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/** Thread dumps too large to commit, written as the JDK writes them while they are read. */
public final class GeneratedDumps {

  private GeneratedDumps() {}

  /** A JDK 25 JSON dump of one platform thread and {@code count} parked virtual threads. */
  public static InputStream parkedCrowd(int count) {
    String head =
        """
        {"threadDump": {"processId": "42", "time": "2026-11-27T11:15:37.631647512Z",
          "runtimeVersion": "25.0.3+9-LTS", "threadContainers": [
          {"container": "<root>", "parent": null, "owner": null, "threads": [
            {"tid": "3", "time": "2026-11-27T11:15:37.638545478Z", "name": "main",
             "state": "WAITING", "stack": ["java.base\\/java.lang.Object.wait0(Native Method)",
             "Main.main(Main.java:15)"]}], "threadCount": "1"},
          {"container": "java.util.concurrent.ThreadPerTaskExecutor@1", "parent": "<root>",
           "owner": null, "threads": [
        """;
    String tail = "], \"threadCount\": \"" + count + "\"}]}}";
    Iterator<InputStream> parts =
        new Iterator<>() {
          int next = -1;

          @Override
          public boolean hasNext() {
            return next <= count;
          }

          @Override
          public InputStream next() {
            String part;
            if (next < 0) {
              part = head;
            } else if (next == count) {
              part = tail;
            } else {
              part = (next == 0 ? "" : ",") + thread(next);
            }
            next++;
            return new ByteArrayInputStream(part.getBytes(StandardCharsets.UTF_8));
          }
        };
    return new SequenceInputStream(enumeration(parts));
  }

  private static java.util.Enumeration<InputStream> enumeration(Iterator<InputStream> parts) {
    return new java.util.Enumeration<>() {
      @Override
      public boolean hasMoreElements() {
        return parts.hasNext();
      }

      @Override
      public InputStream nextElement() {
        return parts.next();
      }
    };
  }

  private static String thread(int i) {
    String site = "App.task" + (i % 3) + "(App.java:" + (10 + i % 3) + ")";
    return """
        {"tid": "%d", "time": "2026-11-27T11:15:37.64Z", "virtual": true, "name": "worker-%d",
         "state": "WAITING", "parkBlocker": {"object": "java.util.concurrent.Semaphore$NonfairSync@6efb9"},
         "stack": ["java.base\\/java.lang.VirtualThread.park(VirtualThread.java:738)",
           "java.base\\/java.lang.System$1.parkVirtualThread(System.java:2285)",
           "java.base\\/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
           "java.base\\/java.util.concurrent.Semaphore.acquire(Semaphore.java:318)",
           "%s",
           "java.base\\/java.lang.VirtualThread.run(VirtualThread.java:460)"]}
        """
        .formatted(100 + i, i, site);
  }
}
