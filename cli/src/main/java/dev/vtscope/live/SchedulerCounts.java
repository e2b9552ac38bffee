package dev.vtscope.live;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The virtual-thread scheduler's counts now, as {@code jcmd PID Thread.vthread_scheduler} prints
 * them on JDK 24+ (the scheduler's {@code ForkJoinPool}: {@code parallelism = 2, size = 2, active =
 * 2, running = 0, steals = 2, tasks = 0, submissions = 5}). They are the counts of {@code
 * jdk.management.VirtualThreadSchedulerMXBean}: mounted virtual threads are the pool's active
 * threads, queued ones its queued tasks and submissions (checked against the bean on JDK 25).
 *
 * @param parallelism the scheduler's parallelism
 * @param poolSize its carriers, started and not yet ended
 * @param mounted virtual threads mounted on a carrier
 * @param queued virtual threads ready to run, waiting for a carrier
 */
public record SchedulerCounts(int parallelism, int poolSize, int mounted, long queued) {

  private static final Pattern FIGURE = Pattern.compile("(\\w+) = (\\d+)");

  /**
   * The counts of the JVM with this pid; empty when it has no such command (JDK 21–23) or does not
   * answer.
   */
  public static Optional<SchedulerCounts> read(long pid) {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      return parse(jvm.execute("Thread.vthread_scheduler"));
    } catch (LiveException e) {
      return Optional.empty();
    }
  }

  /** The counts in {@code Thread.vthread_scheduler}'s answer, or empty when it has none. */
  static Optional<SchedulerCounts> parse(String answer) {
    Integer parallelism = null;
    Integer size = null;
    Integer active = null;
    long tasks = -1;
    long submissions = -1;
    Matcher m = FIGURE.matcher(answer);
    while (m.find()) {
      long value;
      try {
        value = Long.parseLong(m.group(2));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
      switch (m.group(1)) {
        case "parallelism" -> parallelism = (int) value;
        case "size" -> size = (int) value;
        case "active" -> active = (int) value;
        case "tasks" -> tasks = value;
        case "submissions" -> submissions = value;
        default -> {
          // running and steals: not the bean's
        }
      }
    }
    if (parallelism == null || size == null || active == null || tasks < 0 || submissions < 0) {
      return Optional.empty();
    }
    return Optional.of(new SchedulerCounts(parallelism, size, active, tasks + submissions));
  }
}
