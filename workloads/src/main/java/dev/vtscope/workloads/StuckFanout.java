package dev.vtscope.workloads;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fan-out stuck behind a {@link Semaphore}: {@code --tasks} virtual threads ({@code call-N}) each
 * take one of {@code --permits} permits to call a partner service over a socket, and the partner
 * accepts the connection but never answers. The permit holders wait in their socket reads for ever;
 * every other task parks in {@code Semaphore.acquire}. Nothing is pinned and nothing is deadlocked:
 * the question a thread dump has to answer is what thousands of threads wait for.
 *
 * <p>Variants: {@code no-timeout}, which says {@code ready:} once every task waits (the holders in
 * their reads, the rest queued for a permit) and hangs until stopped; and its fixed twin {@code
 * timeout}, where the call reads with {@code --call-timeout} and a task waits that long at most for
 * a permit, so every task ends, most with a timeout the caller sees.
 *
 * <p>Events and finding: no pinned event. JDK 25's JSON dump gives each queued task the park
 * blocker {@code Semaphore$NonfairSync@...}, the same for all; on JDK 21 the stacks alone say it
 * ({@code Semaphore.acquire} under {@code StuckFanout.call}); the holders read a socket ({@code
 * NioSocketImpl.park}), no carrier held. JDK range: 21+.
 */
public final class StuckFanout implements Workload {

  @Override
  public String name() {
    return "stuck-fanout";
  }

  @Override
  public String description() {
    return "thousands of virtual threads parked in Semaphore.acquire behind a few permits held by"
        + " calls that never return";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy as far as pinning goes; a thread dump shows the tasks queued for one semaphore"
        + " and the permit holders in socket reads";
  }

  @Override
  public List<String> variants() {
    return List.of("no-timeout", "timeout");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int tasks = args.integer("tasks");
    int permits = args.integer("permits");
    Duration callTimeout = args.duration("call-timeout");
    boolean bounded = args.variant().equals("timeout");
    Semaphore semaphore = new Semaphore(permits);
    Queue<Thread> holders = new ConcurrentLinkedQueue<>();
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger timedOut = new AtomicInteger();
    long start = System.nanoTime();
    try (ServerSocket partner = new ServerSocket(0, tasks, InetAddress.getLoopbackAddress())) {
      Queue<Socket> accepted = new ConcurrentLinkedQueue<>();
      Thread.ofPlatform()
          .daemon()
          .name("partner")
          .start(
              () -> {
                try {
                  while (true) {
                    accepted.add(partner.accept()); // kept open, and never answered
                  }
                } catch (IOException e) {
                  // closed at the end of the fixed twin
                }
              });
      Thread[] started = new Thread[tasks];
      for (int i = 0; i < tasks; i++) {
        started[i] =
            Thread.ofVirtual()
                .name("call-" + i)
                .start(
                    () -> {
                      try {
                        if (!acquire(semaphore, bounded, callTimeout)) {
                          timedOut.incrementAndGet();
                          return;
                        }
                        try {
                          holders.add(Thread.currentThread());
                          if (call(partner.getLocalPort(), bounded, callTimeout)) {
                            answered.incrementAndGet();
                          } else {
                            timedOut.incrementAndGet();
                          }
                        } finally {
                          semaphore.release();
                        }
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    });
      }
      if (!bounded) {
        Hang.until(
            () ->
                semaphore.getQueueLength() == tasks - Math.min(tasks, permits)
                    && holders.size() == Math.min(tasks, permits)
                    && holders.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
        Hang.ready(
            holders.size()
                + " tasks wait for the partner's answer, "
                + semaphore.getQueueLength()
                + " for a permit");
        return Hang.forever();
      }
      for (Thread t : started) {
        t.join();
      }
      for (Socket s : accepted) {
        s.close();
      }
    }
    return new WorkloadResult(name(), args.variant())
        .figure("tasks", tasks)
        .figure("permits", permits)
        .figure("answered", answered.get())
        .figure("timedOut", timedOut.get())
        .figure("wallMillis", Math.round((System.nanoTime() - start) / 1e5) / 10.0);
  }

  private static boolean acquire(Semaphore semaphore, boolean bounded, Duration timeout)
      throws InterruptedException {
    if (bounded) {
      return semaphore.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
    semaphore.acquire();
    return true;
  }

  /** Asks the partner and reads its answer: false when it timed out or the call failed. */
  private static boolean call(int port, boolean bounded, Duration timeout) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      if (bounded) {
        socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
      }
      socket.getOutputStream().write('?');
      InputStream in = socket.getInputStream();
      return in.read() >= 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        List.of(25, 21),
        "--tasks 300",
        "timeout",
        "`stuck-fanout --tasks 300` / `--variant timeout`",
        "—",
        "JDK 21 and 25: 20 calls in socket reads and 280 tasks queued on one semaphore, no carrier"
            + " held, no pinned event; `--variant timeout --call-timeout 500ms`: all 300 timed out,"
            + " in 1.2 s (JDK 21) and 0.6 s (JDK 25)");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("tasks", "2000", "virtual threads that call the partner"),
        WorkloadOption.count("permits", "20", "the semaphore's permits: calls at once"),
        WorkloadOption.duration(
            "call-timeout",
            "1s",
            "with --variant timeout, how long a call reads and a task waits for a permit"));
  }
}
