package dev.vtscope.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options of the JVMs the tests start. The suite starts hundreds, most of them recorded by
 * JFR for a second or two, and on 2 CPUs it is bound by their CPU: the optimising compiler's
 * threads, compiling JFR's own code at startup, cost a recorded JVM of that length 40% of its CPU
 * and give nothing back before it ends.
 */
public final class ChildJvms {

  private ChildJvms() {}

  /**
   * For a program the tests run or record (a workload, a test program): the quick compiler only,
   * and the serial collector, which saves a JDK 21 workload recorded for a second a sixth of its
   * CPU. What the tests read from these JVMs depends on neither: the events, their stacks (frames
   * still go from interpreted to compiled and inlined), the threads, the dumps. The serial
   * collector is also what the JDK chooses on a machine of one CPU, so a running JVM's repository
   * read with it is one users have.
   */
  public static List<String> program() {
    return List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  }

  /** For vtscope in a child JVM: the options the {@code vtscope} launcher gives it. */
  public static List<String> vtscope() {
    return List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  }

  /** {@code java}, the {@linkplain #program() program options}, then {@code rest}. */
  public static List<String> program(Path java, String... rest) {
    return command(java, program(), rest);
  }

  /**
   * vtscope's main class run by {@code java} with the {@linkplain #vtscope() launcher's options}
   * and the Attach API's commands (as the jar's manifest allows them), given {@code args}.
   */
  public static List<String> vtscope(Path java, String... args) {
    List<String> command =
        command(
            java,
            vtscope(),
            "--add-exports=jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            "dev.vtscope.cli.VtScope");
    command.addAll(List.of(args));
    return command;
  }

  private static List<String> command(Path java, List<String> options, String... rest) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(options);
    command.addAll(List.of(rest));
    return command;
  }
}
