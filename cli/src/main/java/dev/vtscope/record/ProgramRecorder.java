package dev.vtscope.record;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.Workloads;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code vtscope record} of a program: chooses the JDK, makes the command of a workload or checks a
 * Java command, runs it in a child JVM under JFR with vtscope's settings, and says on stderr what
 * happens. The command wires its options to a {@link Request} and analyses what was recorded.
 */
public final class ProgramRecorder {

  /** The JDK releases vtscope's data file states. */
  private static final Knowledge.JdkFacts JDK = Knowledge.standard().jdk();

  /**
   * What to run.
   *
   * @param workload the workload to run, or null for {@code arguments} as a Java command
   * @param variant the workload's variant, or null for its first
   * @param jdk a feature release or a JDK folder to run on, or null for the JDK running vtscope
   *     (workloads) or the command as it is
   * @param arguments the workload's options, or the Java command
   * @param out where the recording goes, or null for a new file in the current folder
   * @param pinnedThreshold the threshold of pinned events, or null for 0 ms (workloads) or the
   *     JDK's 20 ms
   * @param timeout when to stop the program, or null for never
   * @param timeoutAsGiven the timeout as the user wrote it, which messages repeat
   */
  public record Request(
      Workload workload,
      String variant,
      String jdk,
      List<String> arguments,
      Path out,
      Duration pinnedThreshold,
      Duration timeout,
      String timeoutAsGiven) {}

  /**
   * What was recorded.
   *
   * @param recording the recording the program wrote
   * @param succeeded whether the program exited with 0 before any timeout
   * @param recordedWith the JDK the program ran on when one was chosen, or null
   * @param atTimeout the program's threads when the timeout stopped it, or null
   */
  public record Outcome(Path recording, boolean succeeded, Path recordedWith, JvmAtEnd atTimeout) {}

  private final JdkLocator locator;

  private final PrintWriter stderr;

  /**
   * @param locator where JDKs are found
   * @param stderr where the program's own output and what happens to it are written
   */
  public ProgramRecorder(JdkLocator locator, PrintWriter stderr) {
    this.locator = locator;
    this.stderr = stderr;
  }

  /** Runs the program of {@code request} and keeps its recording. */
  public Outcome record(Request request) throws RecordException, InterruptedException {
    Workload w = request.workload();
    String threshold =
        (request.pinnedThreshold() != null
                    ? request.pinnedThreshold()
                    : w != null ? Duration.ZERO : Duration.ofMillis(20))
                .toMillis()
            + " ms";
    List<String> command;
    String note = null;
    Path recordedWith = null;
    Path out = request.out();
    Map<String, String> environment = new LinkedHashMap<>();
    if (w != null) {
      String variant = request.variant();
      if (variant != null && !w.variants().contains(variant)) {
        throw new RecordException(
            RecordException.Problem.USAGE,
            "workload "
                + w.name()
                + " has no variant '"
                + variant
                + "'; its variants: "
                + String.join(", ", w.variants()));
      }
      Jdk runtime = chooseJdk(request.jdk());
      recordedWith = runtime.home();
      if (runtime.feature() < w.minimumJdk()) {
        // said before anything starts: the child would only fail and leave an empty recording
        throw new RecordException(
            RecordException.Problem.USAGE,
            "workload "
                + w.name()
                + " needs JDK "
                + w.minimumJdk()
                + " or later; JDK "
                + runtime.feature()
                + " was chosen: "
                + locator.all().stream()
                    .mapToInt(Jdk::feature)
                    .filter(f -> f >= w.minimumJdk())
                    .max()
                    .stream()
                    .mapToObj(f -> "run it with --jdk " + f)
                    .findFirst()
                    .orElse(
                        "install a JDK " + w.minimumJdk() + " or later and choose it with --jdk"));
      }
      if (w.effectGoneFrom() > 0 && runtime.feature() >= w.effectGoneFrom()) {
        note =
            "JDK "
                + runtime.feature()
                + " cannot show this effect (it exists on JDK "
                + w.effectJdks()
                + "; JEP 491 removed monitor pinning in JDK "
                + JDK.monitorsStopPinningIn()
                + "): to see it, run with --jdk "
                + JDK.virtualThreadsFinalIn()
                + ".";
      }
      command =
          ChildRecording.workloadCommand(
              runtime.java(), ownJar(), w.name(), variant, request.arguments());
      if (out == null) {
        out =
            newFileName(
                "vtscope-"
                    + w.name()
                    + (variant == null ? "" : "-" + variant)
                    + "-jdk"
                    + runtime.feature());
      }
    } else {
      if (request.arguments().isEmpty()) {
        throw new RecordException(
            RecordException.Problem.USAGE,
            "give --workload NAME, or the Java command to record after --");
      }
      command = request.arguments();
      if (request.jdk() != null) {
        Jdk runtime = chooseJdk(request.jdk());
        recordedWith = runtime.home();
        command = onJdk(runtime, command, environment);
        note = jdkNote(runtime, request.arguments());
      }
      refuseJavaWithoutVirtualThreads(command, environment);
      if (out == null) {
        out = newFileName("vtscope-recording");
      }
    }
    refuseExistingOrUnwritable(out);
    if (w == null && note != null) {
      stderr.println("vtscope record: " + note);
    }
    stderr.println("vtscope record: running " + String.join(" ", command));
    stderr.flush();
    ChildRecording.Result result;
    // A program still running at the timeout may hang with every carrier pinned: its threads then
    // are the evidence, as they are for --pid.
    List<JvmAtEnd> atTimeout = new ArrayList<>();
    try {
      result =
          ChildRecording.run(
              command,
              environment,
              out,
              threshold,
              request.timeout(),
              new StderrStream(stderr),
              pid -> {
                atTimeout.add(JvmAtEnd.take(pid, stderr));
              });
    } catch (IOException e) {
      throw new RecordException(
          RecordException.Problem.CANNOT_START,
          "could not start '" + command.get(0) + "': " + e.getMessage(),
          e);
    }
    String ending =
        result.ending() == ChildRecording.Ending.TIMED_OUT
            ? "stopped after the " + request.timeoutAsGiven() + " timeout"
            : "exited with code " + result.exitCode();
    if (!result.recorded()) {
      throw new RecordException(
          RecordException.Problem.PROGRAM_FAILED,
          "the program "
              + ending
              + " and wrote no recording to "
              + out
              + (w == null ? " (is it a java command of JDK 11 or later?)" : ""));
    }
    stderr.println("vtscope record: the program " + ending + "; recording: " + out);
    if (w != null && note != null) {
      stderr.println("vtscope record: " + note);
    }
    stderr.flush();
    return new Outcome(
        out,
        result.ending() == ChildRecording.Ending.EXITED && result.exitCode() == 0,
        recordedWith,
        atTimeout.isEmpty() ? null : atTimeout.get(0));
  }

  /** A new file vtscope may write: not there yet, in a folder that is. */
  public static void refuseExistingOrUnwritable(Path file) throws RecordException {
    if (Files.exists(file)) {
      throw new RecordException(
          RecordException.Problem.USAGE,
          file + " already exists; vtscope never overwrites a file, choose another --out");
    }
    Path folder = file.toAbsolutePath().getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw new RecordException(
          RecordException.Problem.CANNOT_WRITE,
          "cannot write " + file + ": its folder does not exist; create it first");
    }
    // the JVM writes the recording itself, and fails at its start (or at its end) if it cannot
    if (!Files.isWritable(folder)) {
      throw new RecordException(
          RecordException.Problem.CANNOT_WRITE,
          "cannot write " + file + ": its folder is not writable; choose another --out");
    }
  }

  private Jdk chooseJdk(String jdk) throws RecordException {
    if (jdk == null) {
      return new Jdk(Path.of(System.getProperty("java.home")), Runtime.version().feature());
    }
    if (jdk.matches("\\d+")) {
      int feature = Integer.parseInt(jdk);
      Optional<Jdk> found = locator.feature(feature);
      if (found.isEmpty()) {
        String seen =
            locator.all().stream()
                .map(j -> "JDK " + j.feature() + " at " + j.home())
                .collect(Collectors.joining(", "));
        throw new RecordException(
            RecordException.Problem.NO_JAVA,
            "no JDK "
                + feature
                + " found ("
                + (seen.isEmpty() ? "none at all" : "found " + seen)
                + "); install one or pass --jdk PATH");
      }
      return found.get();
    }
    Optional<Jdk> at = locator.at(Path.of(jdk));
    if (at.isEmpty()) {
      throw new RecordException(
          RecordException.Problem.NO_JAVA,
          jdk + " is not a Java runtime (no bin/java and release file)");
    }
    return at.get();
  }

  /**
   * The command to run on {@code runtime}: a bare {@code java} becomes that JDK's java, and the
   * child's {@code JAVA_HOME} and {@code PATH} point at it, so build tools and scripts that look
   * there ({@code mvn}, {@code gradle}, a start script) use it too.
   */
  static List<String> onJdk(Jdk runtime, List<String> command, Map<String, String> environment) {
    environment.put("JAVA_HOME", runtime.home().toString());
    String path = System.getenv("PATH");
    String bin = runtime.java().getParent().toString();
    environment.put(
        "PATH", path == null || path.isEmpty() ? bin : bin + java.io.File.pathSeparator + path);
    if (isBareJava(command.get(0))) {
      List<String> replaced = new ArrayList<>(command);
      replaced.set(0, runtime.java().toString());
      return List.copyOf(replaced);
    }
    return command;
  }

  /** What --jdk did to a command, for the user: nothing is changed silently. */
  static String jdkNote(Jdk runtime, List<String> command) {
    String first = command.get(0);
    if (isBareJava(first)) {
      return "--jdk " + runtime.feature() + ": 'java' runs as " + runtime.java();
    }
    String name =
        Path.of(first).getFileName() == null ? first : Path.of(first).getFileName().toString();
    if (name.equals("java") || name.equals("java.exe")) {
      return "--jdk "
          + runtime.feature()
          + " does not replace the java named in the command ("
          + first
          + "); it runs as given";
    }
    return "--jdk "
        + runtime.feature()
        + ": the command runs with JAVA_HOME="
        + runtime.home()
        + " and that JDK's bin first on PATH";
  }

  /**
   * A command whose java has no virtual threads (a JDK older than 21, say the system's default
   * java) would run and leave a recording with nothing to show: refused before it starts.
   */
  private void refuseJavaWithoutVirtualThreads(
      List<String> command, Map<String, String> environment) throws RecordException {
    String first = command.get(0);
    Path executable = null;
    if (isBareJava(first)) {
      String path = environment.getOrDefault("PATH", System.getenv("PATH"));
      for (String dir : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
        if (!dir.isBlank() && Files.isExecutable(Path.of(dir, first))) {
          executable = Path.of(dir, first);
          break;
        }
      }
    } else {
      Path named = Path.of(first).getFileName();
      if (named != null && isBareJava(named.toString())) {
        executable = Path.of(first);
      }
    }
    if (executable == null) {
      return; // not java itself (a script, mvn, gradle): what it runs is its business
    }
    Path real;
    try {
      real = executable.toRealPath();
    } catch (IOException e) {
      return;
    }
    Optional<Jdk> runtime = locator.at(real);
    if (runtime.isPresent() && runtime.get().feature() < JDK.virtualThreadsFinalIn()) {
      throw new RecordException(
          RecordException.Problem.NO_JAVA,
          "'"
              + first
              + "' is JDK "
              + runtime.get().feature()
              + " ("
              + real
              + "), which has no virtual threads: run with --jdk "
              + JDK.virtualThreadsFinalIn()
              + " (or later), or put a JDK "
              + JDK.virtualThreadsFinalIn()
              + "+ first on PATH");
    }
  }

  private static boolean isBareJava(String program) {
    return program.equals("java") || program.equals("java.exe");
  }

  private static Path ownJar() {
    try {
      return Path.of(Workloads.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A new file name in the current folder, stamped with the time, not taken yet. */
  public static Path newFileName(String stem) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path candidate = Path.of(stem + "-" + stamp + ".jfr");
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = Path.of(stem + "-" + stamp + "-" + i + ".jfr");
    }
    return candidate;
  }

  /** Copies the child's output to vtscope's stderr writer. */
  private static final class StderrStream extends OutputStream {
    private final PrintWriter err;

    StderrStream(PrintWriter err) {
      this.err = err;
    }

    @Override
    public void write(int b) {
      err.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      err.write(new String(b, off, len, StandardCharsets.UTF_8));
    }

    @Override
    public void flush() {
      err.flush();
    }
  }
}
