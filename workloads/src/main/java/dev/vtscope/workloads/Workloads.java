package dev.vtscope.workloads;

import java.util.List;
import java.util.Optional;

/**
 * Runs a workload by name: {@code java -cp vtscope.jar dev.vtscope.workloads.Workloads NAME
 * [--variant V] [--json] [--key value ...]}, or {@code NAME --help} for its options. Exit code 0 on
 * success, 2 on bad arguments.
 */
public final class Workloads {

  /** Every workload, in the order {@code vtscope workloads} lists them. */
  public static final List<Workload> ALL =
      List.of(
          new SharedLockPinning(),
          new PerTaskPinning(),
          new ClassInitPinning(),
          new ForeignCallPinning(),
          new ConnectionPoolStall(),
          new SubmitFailure(),
          new SleepFanout(),
          new CpuBound(),
          new ThreadLocalTrap(),
          new SemaphoreLimit(),
          new MetricsMap(),
          new ParkedThreads(),
          new SocketRoundTrip(),
          new CarrierMonopoly(),
          new PollerDeadlock(),
          new LockOrderDeadlock(),
          new CarrierStarvation(),
          new ClassInitDeadlock(),
          new StuckFanout());

  private Workloads() {}

  public static Optional<Workload> find(String name) {
    return ALL.stream().filter(w -> w.name().equals(name)).findFirst();
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: Workloads NAME [--variant V] [--json] [--key value ...]");
      System.exit(2);
    }
    Optional<Workload> workload = find(args[0]);
    if (workload.isEmpty()) {
      System.err.println("workload: no workload named '" + args[0] + "'");
      System.exit(2);
    }
    List<String> arguments = List.of(args).subList(1, args.length);
    if (WorkloadArgs.asksForHelp(arguments)) {
      System.out.print(WorkloadArgs.usage(workload.get()));
      System.out.flush();
      System.exit(0);
    }
    WorkloadArgs parsed;
    try {
      parsed = WorkloadArgs.parse(arguments, workload.get());
    } catch (WorkloadArgs.BadArgumentException e) {
      System.err.println("workload " + args[0] + ": " + e.getMessage());
      System.exit(2);
      return;
    }
    WorkloadResult result;
    try {
      result = workload.get().run(parsed);
    } catch (UnsupportedOperationException e) {
      System.err.println("workload " + args[0] + ": " + e.getMessage());
      System.exit(3);
      return;
    }
    System.out.print(parsed.json() ? result.toJson() + "\n" : result.toText());
    System.out.flush();
    // Stalled virtual threads never finish; exit so the recording is written.
    System.exit(0);
  }
}
