package dev.vtscope.record;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one program in a child JVM with JFR on and vtscope's settings, and reports how it ended. The
 * recording options go in {@code JDK_JAVA_OPTIONS}, which the {@code java} launcher reads, so the
 * user's command line is run as it is.
 */
public final class ChildRecording {

  /** Stack depth deep enough for framework stacks (the JDK's default is 64). */
  public static final int STACK_DEPTH = 256;

  /** How a child ended. */
  public enum Ending {
    EXITED,
    TIMED_OUT
  }

  /**
   * The result.
   *
   * @param ending whether it exited or was stopped at the timeout
   * @param exitCode its exit code
   * @param recording the recording, when the child wrote one
   */
  public record Result(Ending ending, int exitCode, Path recording) {

    /** Whether a non-empty recording exists. */
    public boolean recorded() {
      try {
        return recording != null && Files.isRegularFile(recording) && Files.size(recording) > 0;
      } catch (IOException e) {
        return false;
      }
    }
  }

  private ChildRecording() {}

  /** vtscope's JFR settings, as shipped in the jar. */
  public static InputStream settings() {
    return ChildRecording.class.getResourceAsStream("/dev/vtscope/vtscope.jfc");
  }

  /**
   * Runs {@code command} with some environment variables set, and waits for it; when the timeout
   * stops it, {@code atTimeout} is given its pid first, while it still runs as it ran (a program
   * that hangs is stopped by the timeout, and a pin that never ended wrote no event: what it is
   * doing then is the evidence).
   *
   * @param command the program: {@code java ...}
   * @param environment variables to set in the child's environment, e.g. {@code JAVA_HOME}
   * @param out where the recording goes; must not exist
   * @param pinnedThreshold threshold of jdk.VirtualThreadPinned, e.g. {@code 20 ms}
   * @param timeout how long it may run, or null for no limit
   * @param output where the child's standard output and error go
   * @param atTimeout what to do with the program's pid before the timeout stops it
   */
  public static Result run(
      List<String> command,
      Map<String, String> environment,
      Path out,
      String pinnedThreshold,
      Duration timeout,
      OutputStream output,
      java.util.function.LongConsumer atTimeout)
      throws IOException, InterruptedException {
    Path settings = Files.createTempFile("vtscope-", ".jfc");
    // Ctrl-C or kill ends vtscope in its wait below, where the finally block never runs: the file
    // goes when the JVM does
    settings.toFile().deleteOnExit();
    try {
      // written into the file made above, never created again: a Ctrl-C that comes while it is
      // written deletes it as the JVM ends, and this thread, which runs on meanwhile, must not
      // bring it back
      try (InputStream in = settings();
          OutputStream file =
              Files.newOutputStream(
                  settings,
                  java.nio.file.StandardOpenOption.WRITE,
                  java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
        in.transferTo(file);
      }
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      Map<String, String> env = builder.environment();
      env.putAll(environment);
      String options =
          "-XX:StartFlightRecording:filename="
              + out.toAbsolutePath()
              + ",settings="
              + settings
              + ",jdk.VirtualThreadPinned#threshold="
              + pinnedThreshold.replace(" ", "")
              + " -XX:FlightRecorderOptions:stackdepth="
              + STACK_DEPTH
              + " -Xlog:jfr+startup=warning";
      String existing = env.get("JDK_JAVA_OPTIONS");
      env.put(
          "JDK_JAVA_OPTIONS",
          existing == null || existing.isBlank() ? options : existing + " " + options);
      Process process = builder.start();
      // vtscope interrupted (Ctrl-C, a CI job's timeout): the program is stopped as a timeout stops
      // it, so that it writes its recording, rather than left running on its own.
      Thread stopChild =
          new Thread(
              () -> {
                if (process.isAlive()) {
                  process.destroy();
                  try {
                    if (!process.waitFor(20, TimeUnit.SECONDS)) {
                      process.destroyForcibly();
                    }
                  } catch (InterruptedException e) {
                    process.destroyForcibly();
                  }
                }
              },
              "vtscope-stop-child");
      Runtime.getRuntime().addShutdownHook(stopChild);
      Thread pump =
          Thread.ofPlatform()
              .daemon()
              .start(
                  () -> {
                    try (InputStream in = process.getInputStream()) {
                      copyWithoutOwnNote(in, output, options);
                    } catch (IOException e) {
                      // the child closed its output: nothing more to copy
                    }
                  });
      boolean finished =
          timeout == null
              ? process.waitFor(Long.MAX_VALUE, TimeUnit.DAYS)
              : process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      Ending ending = Ending.EXITED;
      if (!finished) {
        ending = Ending.TIMED_OUT;
        atTimeout.accept(process.pid());
        process.destroy(); // SIGTERM: the JVM's shutdown hooks write the recording
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor();
        }
      }
      pump.join(5_000);
      output.flush();
      try {
        Runtime.getRuntime().removeShutdownHook(stopChild);
      } catch (IllegalStateException e) {
        // vtscope is shutting down: the hook stops the program
      }
      return new Result(ending, process.exitValue(), out);
    } finally {
      Files.deleteIfExists(settings);
    }
  }

  /**
   * Copies the child's output, leaving out the line in which the java launcher repeats the options
   * vtscope put in {@code JDK_JAVA_OPTIONS} ("NOTE: Picked up JDK_JAVA_OPTIONS: …"): the user did
   * not write them; options of the user's own in that line are still said. JFR's info lines about
   * starting the recording ({@code [info][jfr,startup]}) are left out too. Everything else passes
   * byte for byte (lines are read as ISO-8859-1, which maps every byte to one character and back).
   */
  static void copyWithoutOwnNote(InputStream in, OutputStream out, String ownOptions)
      throws IOException {
    java.io.BufferedReader lines =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.ISO_8859_1));
    java.io.Writer writer =
        new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = lines.read()) >= 0) {
      line.append((char) c);
      if (c == '\n') {
        writeUnlessOwnNote(line, writer, ownOptions);
        line.setLength(0);
        writer.flush();
      }
    }
    writeUnlessOwnNote(line, writer, ownOptions);
    writer.flush();
  }

  private static final java.util.regex.Pattern JFR_STARTUP_INFO =
      java.util.regex.Pattern.compile("\\[[^\\]]*\\]\\[info\\s*\\]\\[jfr,startup\\s*\\]");

  private static void writeUnlessOwnNote(CharSequence line, java.io.Writer out, String ownOptions)
      throws IOException {
    String text = line.toString();
    if (JFR_STARTUP_INFO.matcher(text).lookingAt()) {
      // "Started recording 1 … Use jcmd … JFR.dump": vtscope's own recording, which JDK 21
      // announces
      // although -Xlog:jfr+startup=warning asks it not to
      return;
    }
    String prefix = "NOTE: Picked up JDK_JAVA_OPTIONS: ";
    if (text.startsWith(prefix) && text.contains(ownOptions)) {
      // the user's own options, if any, are still said
      String theirs = text.replace(ownOptions, "").substring(prefix.length()).strip();
      if (theirs.isEmpty()) {
        return;
      }
      text = prefix + theirs + System.lineSeparator();
    }
    out.write(text);
  }

  /** The {@code java} command for a workload of vtscope's own jar. */
  public static List<String> workloadCommand(
      Path java, Path jar, String workload, String variant, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED"); // submit-failed's custom scheduler
    command.add("-cp");
    command.add(jar.toString());
    command.add("dev.vtscope.workloads.Workloads");
    command.add(workload);
    if (variant != null) {
      command.add("--variant");
      command.add(variant);
    }
    command.addAll(args);
    return command;
  }
}
