package dev.vtscope.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.live.LiveException;
import dev.vtscope.live.LocalJvms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workload running in a child JVM for the tests of {@code record --pid}, {@code watch} and {@code
 * jvms}: started, awaited until the Attach API lists it, and ended when closed. Its output goes to
 * a file.
 */
public final class RunningWorkload implements AutoCloseable {

  private final Process process;
  private final Path output;

  private RunningWorkload(Process process, Path output) {
    this.process = process;
    this.output = output;
  }

  /** A workload that pins carriers for minutes on {@code java}'s JDK. */
  public static RunningWorkload pinning(Path java, List<String> jvmOptions) throws Exception {
    return feature(java) >= 22
        ? start(
            java,
            jvmOptions,
            "native-pinning",
            "--variant",
            "upcall",
            "--threads",
            "100000",
            "--block",
            "5ms")
        : start(
            java,
            jvmOptions,
            "pinning",
            "--variant",
            "synchronized",
            "--tasks",
            "100000",
            "--hold",
            "5ms");
  }

  /**
   * Starts {@code workload} and waits until the Attach API lists its JVM with its main class: a JVM
   * publishes its command line a moment after its pid, and a loaded machine makes that moment long.
   */
  public static RunningWorkload start(Path java, List<String> jvmOptions, String... workload)
      throws Exception {
    return launch(
        java,
        jvmOptions,
        TestRecordings.workloadsClassPath(),
        "dev.vtscope.workloads.Workloads",
        workload);
  }

  /** Starts a test program of this module's, {@code main}, as {@link #start} does a workload. */
  public static RunningWorkload program(
      Path java, List<String> jvmOptions, Class<?> main, String... args) throws Exception {
    return launch(java, jvmOptions, System.getProperty("java.class.path"), main.getName(), args);
  }

  private static RunningWorkload launch(
      Path java, List<String> jvmOptions, String classPath, String main, String... args)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(ChildJvms.program());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath, main));
    command.addAll(List.of(args));
    Path output = Files.createTempFile("vtscope-workload-", ".log");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    RunningWorkload running = new RunningWorkload(process, output);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!listed(process.pid())) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        running.close();
        throw new AssertionError(
            "the workload did not start: " + String.join(" ", command) + "\n" + running.output());
      }
      Thread.sleep(100);
    }
    return running;
  }

  private static boolean listed(long pid) throws LiveException {
    return LocalJvms.find(pid).filter(jvm -> !jvm.main().isEmpty()).isPresent();
  }

  /** The feature release of a java executable's runtime. */
  public static int feature(Path executable) throws IOException {
    String release =
        Files.readString(executable.toAbsolutePath().getParent().getParent().resolve("release"));
    Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(release);
    assertThat(m.find()).isTrue();
    return Integer.parseInt(m.group(1));
  }

  public long pid() {
    return process.pid();
  }

  public Process process() {
    return process;
  }

  /** What it printed so far. */
  public String output() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Waits until it prints a line starting with {@code start} (a workload's {@code ready:}, once its
   * state is reached); closes it and fails when it exits first.
   */
  public RunningWorkload awaitLine(String start) throws Exception {
    try {
      Eventually.holds(
          "it prints a line starting with " + start + ", having printed\n" + output(),
          () -> {
            assertThat(process.isAlive()).as("it runs; it printed\n" + output()).isTrue();
            return output().lines().anyMatch(l -> l.startsWith(start));
          });
    } catch (Exception | Error e) {
      close();
      throw e;
    }
    return this;
  }

  @Override
  public void close() throws Exception {
    process.destroyForcibly();
    process.waitFor(20, TimeUnit.SECONDS);
    Files.deleteIfExists(output);
  }
}
