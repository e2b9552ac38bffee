package dev.vtscope.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real recordings for tests: the committed samples, and recordings of the workloads made by child
 * JVMs (the JDK that runs the tests, and JDK 21) with vtscope's own JFR settings. Recordings are
 * made once per test JVM and shared between test classes.
 */
public final class TestRecordings {

  private static final Map<String, Path> MADE = new ConcurrentHashMap<>();
  private static final Map<String, Path> OTHER_FILES = new ConcurrentHashMap<>();

  private TestRecordings() {}

  public static Path repoRoot() {
    String root = System.getProperty("vtscope.repoRoot");
    Path path =
        root == null || root.isBlank() ? Path.of("..").toAbsolutePath().normalize() : Path.of(root);
    assertThat(path.resolve("samples")).as("the repository's samples folder").isDirectory();
    return path;
  }

  /** Every committed sample recording, sorted. */
  public static List<Path> samples() {
    try (Stream<Path> files = Files.walk(repoRoot().resolve("samples"))) {
      return files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Every sample, and recordings made here of the JDK 21 monitor pinning and of class
   * initialisation on the JDK running the tests.
   */
  public static List<Path> samplesAndFreshRecordings() {
    List<Path> all = new ArrayList<>(samples());
    all.add(synchronizedPinningOnJdk21());
    all.add(classInit());
    return all;
  }

  /**
   * The pinning workload's synchronized block on JDK 21, every pin recorded: 60 tasks behind one
   * monitor. One recording for every test that needs that pinning, made once per build.
   */
  public static Path synchronizedPinningOnJdk21() {
    return recordWorkload(
        jdk21Java(), "0ms", "pinning", "--variant", "synchronized", "--tasks", "60");
  }

  /** The class-initialisation workload: four threads wait on one slow class initialiser. */
  private static final String[] CLASS_INIT = {"class-init", "--threads", "4", "--init", "50ms"};

  /**
   * Class initialisation on the JDK running the tests, every pin recorded (a pin from JDK 24 on, a
   * monitor wait on JDK 21-23): the twin of {@link #classInitWithPinnedEventOff()}.
   */
  public static Path classInit() {
    return recordWorkload(currentJava(), "0ms", CLASS_INIT);
  }

  /**
   * Class initialisation on the JDK running the tests with {@code jdk.VirtualThreadPinned} off, its
   * threshold left at vtscope's 20 ms: a recording that can show no pin.
   */
  public static Path classInitWithPinnedEventOff() {
    return recordWorkload(
        currentJava(), List.of("jdk.VirtualThreadPinned#enabled=false"), List.of(), CLASS_INIT);
  }

  /** The java executable running the tests. */
  public static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * The JDK's own jfr tool of the newest JDK at hand (beside {@link #jdk24PlusJava()}), which reads
   * the recordings of every JDK: one oracle for both passes, whose answers they share.
   */
  public static Path jfrTool() {
    Path jfr = jdk24PlusJava().resolveSibling("jfr");
    assertThat(jfr).as("the JDK's jfr tool").isExecutable();
    return jfr;
  }

  /**
   * The JDKs a live test's target JVM runs: JDK 21 and a JDK 24+ when the tests run on the build
   * JDK, and JDK 21 alone when they run on JDK 21 (the second pass). What a target writes and
   * answers is proved on both JDKs by the first pass; the second proves vtscope on JDK 21, against
   * a JDK 21 target here and against a JDK 24+ one in the tests whose target is always that
   * (watch's poller deadlock and JDK 25 lock cycle, dump's JDK 25 monitor cycle, record --pid's
   * recording of a running JVM), so no pair of runtimes goes untested and none is run twice over.
   */
  public static Stream<Path> targetJavas() {
    return Runtime.version().feature() == 21
        ? Stream.of(jdk21Java())
        : Stream.of(jdk21Java(), jdk24PlusJava());
  }

  /**
   * A java of JDK 24 or later, where synchronized no longer pins: the one running the tests if it
   * is, else the build JDK's. Fails, rather than skips, when neither is.
   */
  public static Path jdk24PlusJava() {
    if (Runtime.version().feature() >= 24) {
      return currentJava();
    }
    String home = System.getProperty("vtscope.buildJavaHome", "");
    assertThat(home).as("the build JDK's home (run the suite with ./run-tests)").isNotBlank();
    try {
      String release = Files.readString(Path.of(home, "release"));
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(release);
      assertThat(m.find()).as("JAVA_VERSION in " + home + "/release").isTrue();
      assertThat(Integer.parseInt(m.group(1)))
          .as("the build JDK's release (a JDK 24+ is needed to show JEP 491)")
          .isGreaterThanOrEqualTo(24);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return Path.of(home, "bin", "java");
  }

  /**
   * A JDK 21 java: the one running the tests if it is 21, else the one ./run-tests found, else one
   * installed where ./run-tests or the usual folders put JDKs (for a plain {@code mvn test}).
   * Fails, rather than skips, when there is none: the suite must prove vtscope on JDK 21.
   */
  public static Path jdk21Java() {
    if (Runtime.version().feature() == 21) {
      return currentJava();
    }
    String configured = System.getProperty("vtscope.jdk21.java", "");
    if (configured.isBlank()) {
      configured = installedJdk21().map(Path::toString).orElse("");
    }
    assertThat(configured)
        .as("a JDK 21 java (run the suite with ./run-tests, which finds or installs one)")
        .isNotBlank();
    return Path.of(configured);
  }

  /** A java whose {@code release} file says 21, in .jdks/ of the repository or /usr/lib/jvm. */
  private static java.util.Optional<Path> installedJdk21() {
    List<Path> homes = new ArrayList<>();
    for (Path folder : List.of(repoRoot().resolve(".jdks"), Path.of("/usr/lib/jvm"))) {
      if (Files.isDirectory(folder)) {
        try (Stream<Path> found = Files.walk(folder, 4)) {
          found
              .filter(p -> p.getFileName().toString().equals("release"))
              .forEach(release -> homes.add(release.getParent()));
        } catch (IOException | java.io.UncheckedIOException e) {
          // a folder we cannot list holds nothing we can use
        }
      }
    }
    return homes.stream()
        .sorted()
        .filter(
            home -> {
              try {
                return Files.readString(home.resolve("release")).contains("JAVA_VERSION=\"21");
              } catch (IOException e) {
                return false;
              }
            })
        .map(home -> home.resolve("bin/java"))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /**
   * Records a workload in a child JVM and returns the recording.
   *
   * @param java the JVM to run it on
   * @param threshold the pinned-event threshold, e.g. {@code 0ms}
   * @param workloadArgs the workload's name and arguments
   */
  public static Path recordWorkload(Path java, String threshold, String... workloadArgs) {
    return recordWorkload(
        java, List.of("jdk.VirtualThreadPinned#threshold=" + threshold), List.of(), workloadArgs);
  }

  /**
   * Records a workload in a child JVM with extra event settings (e.g. {@code
   * jdk.VirtualThreadPinned#enabled=false}) and JVM options.
   */
  public static Path recordWorkload(
      Path java, List<String> eventSettings, List<String> jvmOptions, String... workloadArgs) {
    List<String> program =
        new ArrayList<>(List.of("-cp", workloadsClassPath(), "dev.vtscope.workloads.Workloads"));
    program.addAll(List.of(workloadArgs));
    return recordProgram(java, eventSettings, jvmOptions, program);
  }

  /**
   * Records a program of the test sources (with the test class path, third-party libraries
   * included) in a child JVM.
   */
  public static Path recordTestProgram(
      Path java, String threshold, String mainClass, String... args) {
    List<String> program =
        new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    program.addAll(List.of(args));
    return recordProgram(
        java, List.of("jdk.VirtualThreadPinned#threshold=" + threshold), List.of(), program);
  }

  /** Like {@link #recordTestProgram(Path, String, String, String...)}, with JVM options. */
  public static Path recordTestProgram(
      Path java, List<String> jvmOptions, String mainClass, String... args) {
    List<String> program =
        new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    program.addAll(List.of(args));
    return recordProgram(
        java, List.of("jdk.VirtualThreadPinned#threshold=0ms"), jvmOptions, program);
  }

  /** Like {@link #recordTestProgram(Path, String, String, String...)}, with event settings. */
  public static Path recordTestProgram(
      Path java,
      List<String> eventSettings,
      List<String> jvmOptions,
      String mainClass,
      String... args) {
    List<String> program =
        new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    program.addAll(List.of(args));
    return recordProgram(java, eventSettings, jvmOptions, program);
  }

  /**
   * Records {@link HungCarriersProgram} with two carriers: {@code held} ends with both pinned,
   * {@code released} is its fixed twin. Extra event settings, e.g. {@code
   * jdk.ThreadDump#period=500ms}, come after vtscope's.
   */
  public static Path recordHungCarriers(Path java, String variant, String... eventSettings) {
    List<String> settings = new ArrayList<>(List.of("jdk.VirtualThreadPinned#threshold=0ms"));
    settings.addAll(List.of(eventSettings));
    return recordTestProgram(
        java,
        settings,
        List.of("-Djdk.virtualThreadScheduler.parallelism=2"),
        HungCarriersProgram.class.getName(),
        variant,
        variant.equals("held") ? "2000" : "600");
  }

  private static final List<Path> TO_DELETE = new java.util.concurrent.CopyOnWriteArrayList<>();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (Path dir : TO_DELETE) {
                    try (Stream<Path> files = Files.walk(dir)) {
                      files
                          .sorted(java.util.Comparator.reverseOrder())
                          .forEach(p -> p.toFile().delete());
                    } catch (IOException | java.io.UncheckedIOException e) {
                      // what cannot be deleted stays in the temporary folder
                    }
                  }
                }));
  }

  /** Deletes {@code dir} and what it holds when the test JVM exits. */
  public static void deleteAtExit(Path dir) {
    TO_DELETE.add(dir);
  }

  /** Every recording the tests of this JVM have made so far. */
  public static List<Path> made() {
    return MADE.values().stream().sorted().toList();
  }

  private static Path recordProgram(
      Path java, List<String> eventSettings, List<String> jvmOptions, List<String> program) {
    String key = java + "|" + eventSettings + "|" + jvmOptions + "|" + program;
    return MADE.computeIfAbsent(
        key,
        k ->
            SHARED == null
                ? record(java, eventSettings, jvmOptions, program)
                : shared(k, () -> record(java, eventSettings, jvmOptions, program)));
  }

  /**
   * Where the test JVMs of one build share what they recorded (the build sets it: one folder per
   * Maven run), so that a recording both test JVMs or both runtimes' passes need is made once: the
   * second pass runs vtscope on another JDK, and a workload recorded on a given JDK records the
   * same there. Null when the tests run outside such a build: each JVM records for itself.
   */
  private static final Path SHARED = sharedFolder();

  private static Path sharedFolder() {
    String folder = System.getProperty("vtscope.testRecordings", "");
    if (folder.isBlank() || folder.contains("${")) {
      return null;
    }
    Path shared = Path.of(folder).toAbsolutePath();
    try {
      Files.createDirectories(shared);
      // the folders of earlier builds: theirs were made from other sources
      try (Stream<Path> builds = Files.list(shared.getParent())) {
        for (Path earlier : builds.filter(p -> !p.equals(shared)).toList()) {
          deleteAtExit(earlier);
        }
      }
    } catch (IOException e) {
      return null;
    }
    return shared;
  }

  /**
   * The recording of {@code key} in the shared folder, made by {@code making} unless another test
   * JVM made it already; a JVM making it holds a file lock that the others wait on.
   */
  private static Path shared(String key, java.util.function.Supplier<Path> making) {
    return shared(key, "recording.jfr", making);
  }

  /**
   * The file {@code making} makes for {@code key}, made once per build and shared by the test JVMs
   * of both passes like the recordings, or once per test JVM outside such a build.
   *
   * @param name the file's name in the shared folder, e.g. {@code jfr-view.txt}
   */
  public static Path sharedFile(String key, String name, java.util.function.Supplier<Path> making) {
    return OTHER_FILES.computeIfAbsent(
        name + "|" + key, k -> SHARED == null ? making.get() : shared(key, name, making));
  }

  private static Path shared(
      String key, String fileName, java.util.function.Supplier<Path> making) {
    String name;
    try {
      name =
          java.util.HexFormat.of()
              .formatHex(
                  java.security.MessageDigest.getInstance("SHA-256")
                      .digest(key.getBytes(StandardCharsets.UTF_8)))
              .substring(0, 32);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    Path made = SHARED.resolve(name).resolve(fileName);
    try (java.nio.channels.FileChannel lock =
            java.nio.channels.FileChannel.open(
                SHARED.resolve(name + ".lock"),
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE);
        java.nio.channels.FileLock held = lock.lock()) {
      if (!Files.isRegularFile(made)) {
        Path recorded = making.get();
        Files.createDirectories(made.getParent());
        Path partial = made.resolveSibling(fileName + ".part");
        Files.copy(recorded, partial, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.move(partial, made, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      }
      return made;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The workloads jar when the build made it: a multi-release jar, whose JDK 22+ workloads a class
   * folder would hide. Else the test class path.
   */
  public static String workloadsClassPath() {
    Path target = repoRoot().resolve("workloads/target");
    try (Stream<Path> files = Files.list(target)) {
      return files
          .filter(p -> p.getFileName().toString().matches("vtscope-workloads-.*\\.jar"))
          .findFirst()
          .map(Path::toString)
          .orElse(System.getProperty("java.class.path"));
    } catch (IOException e) {
      return System.getProperty("java.class.path");
    }
  }

  /**
   * Whether other processes kept the machine's CPUs more than half busy at some point while {@code
   * recording} was made (its {@code jdk.CPULoad} events, which the recordings of this class hold):
   * then the operating system took the CPU from the recorded JVM's threads for tens of
   * milliseconds, and a thread that only waited for a CPU looks like one that ran that long.
   */
  public static boolean machineWasBusy(Path recording) {
    try {
      for (jdk.jfr.consumer.RecordedEvent e :
          jdk.jfr.consumer.RecordingFile.readAllEvents(recording)) {
        if (e.getEventType().getName().equals("jdk.CPULoad")
            && e.getFloat("machineTotal") - e.getFloat("jvmUser") - e.getFloat("jvmSystem")
                > 0.5f) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** What a workload run without recording printed and returned. */
  public record Run(int exitCode, String output) {}

  /** Runs a workload in a child JVM without JFR. */
  public static Run runWorkload(Path java, String... workloadArgs) {
    try {
      List<String> command = new ArrayList<>(List.of(java.toString()));
      command.addAll(ChildJvms.program());
      command.addAll(List.of("-cp", workloadsClassPath(), "dev.vtscope.workloads.Workloads"));
      command.addAll(List.of(workloadArgs));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
      return new Run(process.exitValue(), output);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path record(
      Path java, List<String> eventSettings, List<String> jvmOptions, List<String> program) {
    try {
      Path dir = Files.createTempDirectory("vtscope-test-recording");
      deleteAtExit(dir);
      Path settings = dir.resolve("vtscope.jfc");
      try (InputStream in = TestRecordings.class.getResourceAsStream("/dev/vtscope/vtscope.jfc")) {
        // and the machine's CPU load every half second: what tells a trace of a busy machine
        // apart (machineWasBusy); vtscope's settings leave it off, and it changes no other event
        // (an event#setting option beside a settings file is not applied on JDK 21)
        String jfc = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        Files.writeString(
            settings,
            jfc.replace(
                "</configuration>",
                "  <event name=\"jdk.CPULoad\">\n"
                    + "    <setting name=\"enabled\">true</setting>\n"
                    + "    <setting name=\"period\">500 ms</setting>\n"
                    + "  </event>\n"
                    + "</configuration>"));
      }
      Path out = dir.resolve("recording.jfr");
      List<String> command = new ArrayList<>();
      command.add(java.toString());
      StringBuilder start =
          new StringBuilder("-XX:StartFlightRecording:filename=" + out + ",settings=" + settings);
      eventSettings.forEach(setting -> start.append(',').append(setting));
      command.add(start.toString());
      command.add("-XX:FlightRecorderOptions:stackdepth=256");
      command.addAll(ChildJvms.program());
      command.addAll(jvmOptions);
      command.add("-Xlog:jfr+startup=warning");
      command.add("--enable-native-access=ALL-UNNAMED");
      command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
      command.addAll(program);
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("output.txt").toFile())
              .start();
      boolean finished = process.waitFor(120, TimeUnit.SECONDS);
      if (!finished) {
        process.destroyForcibly();
      }
      String output = Files.readString(dir.resolve("output.txt"), StandardCharsets.UTF_8);
      assertThat(finished).as("workload finished: " + output).isTrue();
      assertThat(process.exitValue()).as("workload exit code; output: " + output).isZero();
      assertThat(out).as("recording written").isRegularFile();
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
