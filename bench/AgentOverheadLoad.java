import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;

/**
 * The load of bench/agent-overhead.sh, run with and without vtscope-agent: "idle SECONDS" does
 * nothing for that long; "pin TASKS" runs TASKS virtual threads that each park once inside a
 * synchronized block (one pinned event each on JDK 21-23). Then it waits SETTLE seconds, so that
 * the agent analyses the last interval, and prints the process's CPU time and the bytes all
 * threads allocated, from the JVM's own counters. With a fourth argument WARMUP, it first waits
 * that many seconds unmeasured: the agent's start (JFR's stream, its first analysis loading
 * vtscope's classes) is then left out, and what is measured is its steady cost.
 */
public class AgentOverheadLoad {

  private static final Object LOCK = new Object();

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    long n = Long.parseLong(args[1]);
    long settleMillis = Long.parseLong(args[2]) * 1000;
    if (args.length > 3) {
      Thread.sleep(Long.parseLong(args[3]) * 1000);
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long cpu0 = os.getProcessCpuTime();
    long alloc0 = threads.getTotalThreadAllocatedBytes();
    long t0 = System.nanoTime();
    if (mode.equals("idle")) {
      Thread.sleep(n * 1000);
    } else {
      try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
        for (long i = 0; i < n; i++) {
          executor.submit(
              () -> {
                synchronized (LOCK) {
                  LockSupport.parkNanos(50_000);
                }
              });
        }
      }
    }
    long work = System.nanoTime() - t0;
    Thread.sleep(settleMillis);
    System.out.printf(
        "cpuNanos=%d allocBytes=%d workNanos=%d%n",
        os.getProcessCpuTime() - cpu0, threads.getTotalThreadAllocatedBytes() - alloc0, work);
  }
}
