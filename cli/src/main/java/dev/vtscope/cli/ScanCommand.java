package dev.vtscope.cli;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.advice.Severity;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.report.Report;
import dev.vtscope.scan.ClassPathInput;
import dev.vtscope.scan.ClassPathScanner;
import dev.vtscope.scan.ScanAgreement;
import dev.vtscope.scan.ScanResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code vtscope scan CLASSPATH...}: the methods of a class path that can pin a virtual thread's
 * carrier, found in the class files without running them (docs/scan.md).
 */
final class ScanCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "scan",
          "Finds the code of a class path that can pin virtual threads, without running it",
          "Reads the class files of jars and folders (a Spring Boot fat jar's BOOT-INF/lib and"
              + " BOOT-INF/classes included) and lists each method that holds a monitor"
              + " (synchronized method or block) across a call that blocks a virtual thread:"
              + " Object.wait, parking (locks, latches, semaphores), sockets, files, streams,"
              + " futures, blocking queues, Process.waitFor, Thread.sleep, native methods; in its"
              + " own code or through the class path's calls up to --depth. Class initialisers"
              + " that block, native methods, foreign-function upcalls and calls of"
              + " ConcurrentHashMap.compute (which runs its function under the map's monitor) are"
              + " listed too. Each finding has its call chain, the JDK releases it pins on"
              + " (monitors on 21-23; native frames and class initialisers on every release),"
              + " what vtscope knows of the library's fix, and a risk. A call into the JDK counts"
              + " when vtscope's table of blocking JDK methods lists it.",
          "For a Maven project: mvn dependency:build-classpath -Dmdep.outputFile=cp.txt, then"
              + " vtscope scan --classpath-file cp.txt target/classes.",
          "Input files are only read, never changed.");

  private List<String> entries = List.of();

  private Path classPathFile;

  private int depth = ClassPathScanner.DEFAULT_DEPTH;

  private String failOn = "none";

  private List<Path> recordings = List.of();

  private List<String> callsOf = List.of();

  private final OutputOptions output =
      new OutputOptions(
          spec,
          OutputOptions.formats(
              ReportFormat.TEXT,
              "the findings, riskiest first, each with its call chain",
              ReportFormat.JSON,
              "the findings for a program (docs/vtscope-scan.schema.json)",
              ReportFormat.MARKDOWN,
              "a table, for a pull-request comment or a CI job summary"));

  ScanCommand() {
    spec.addPositional(
        Specs.parameters(() -> entries, v -> entries = v)
            .paramLabel("CLASSPATH")
            .arity("0..*")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .description(
                "Jars and folders of classes, a class path (a.jar:b.jar), or a glob ('lib/*' for"
                    + " a folder's jars).")
            .build());
    spec.addOption(
        Specs.option(() -> classPathFile, v -> classPathFile = v, "--classpath-file")
            .paramLabel("FILE")
            .type(Path.class)
            .description(
                "Also the class path in FILE, as mvn dependency:build-classpath"
                    + " -Dmdep.outputFile=FILE writes it (- reads it from standard input).")
            .build());
    spec.addOption(
        Specs.option(() -> depth, v -> depth = v, "--depth")
            .paramLabel("N")
            .type(Integer.class)
            .description(
                "Follow at most N calls from a monitor to the call that blocks; 1 looks only at"
                    + " the calls the synchronized code makes itself (default: "
                    + ClassPathScanner.DEFAULT_DEPTH
                    + ").")
            .build());
    spec.addOption(
        CheckCommand.failOnOption(
            () -> failOn,
            v -> failOn = v,
            "Exit with "
                + ExitCode.CHECK_FAILED.code()
                + " when a finding has this risk or higher: low, medium, high, or none"
                + " (default) to only report."));
    spec.addOption(
        Specs.option(() -> recordings, v -> recordings = v, "--recording")
            .paramLabel("FILE")
            .type(List.class)
            .auxiliaryTypes(Path.class)
            .description(
                "A JFR recording of the program (repeatable; a file, a folder of recordings or a"
                    + " JFR repository), read as vtscope analyze reads it, with the scanned class"
                    + " path as its --classpath. The findings the recordings hit (a pinned or"
                    + " monitor site's culprit is the finding's method) come first, by the carrier"
                    + " time the recordings attribute to them, each with its events and time; the"
                    + " rest follow in the scan's order.")
            .build());
    spec.addOption(
        Specs.option(() -> callsOf, v -> callsOf = v, "--calls-of")
            .paramLabel("CLASS.METHOD")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .description(
                "Also list the calls the method makes (every overload, in every class file of its"
                    + " class), each with the synchronized blocks held there and how the scan finds"
                    + " it blocks: to see why a method is a finding or is not. A nested class is"
                    + " a.b.C$D.m; repeatable. Text and JSON show the list.")
            .build());
    Specs.verboseOption(spec);
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    Severity threshold = CheckCommand.severity(failOn);
    if (depth < 1) {
      throw new ExitException(ExitCode.USAGE, "--depth must be 1 or more, not " + depth);
    }
    for (String m : callsOf) {
      int dot = m.lastIndexOf('.');
      if (dot <= 0 || dot == m.length() - 1) {
        throw new ExitException(
            ExitCode.USAGE, "--calls-of wants a class and a method, a.b.C.m, not " + m);
      }
    }
    List<String> given = new ArrayList<>(entries);
    List<Path> read = new ArrayList<>();
    if (classPathFile != null) {
      given.addAll(ClassPathInput.split(classPathText()));
      read.add(classPathFile);
    }
    if (given.isEmpty()) {
      throw new ExitException(
          ExitCode.USAGE, "give jars or folders to scan, or --classpath-file FILE");
    }
    // the recordings first: a path that is not one is said before a long scan, not after it
    List<RecordingInput> inputs =
        recordings.isEmpty() ? List.of() : RecordingInputOptions.resolve(recordings, false);
    List<Path> classPath = classPath(given);
    read.addAll(classPath);
    ScanResult result = scan(classPath, depth, callsOf);
    ScanAgreement recorded = null;
    if (!inputs.isEmpty()) {
      read.addAll(RecordingInputOptions.files(inputs));
      recorded = ScanAgreement.of(result, AnalysisMixin.analyzeAsDefault(classPath, inputs));
    }
    output.print(
        output.renderer(), new Report.Scanned(result, recorded), spec.commandLine().getOut(), read);
    long failing =
        threshold == null
            ? 0
            : result.findings().stream()
                .filter(f -> f.severity().compareTo(threshold) >= 0)
                .count();
    if (failing > 0) {
      // said on stderr too, for a CI log whose report went to a file
      spec.commandLine()
          .getErr()
          .println(
              "vtscope scan: "
                  + failing
                  + (failing == 1 ? " finding reached" : " findings reached")
                  + " --fail-on "
                  + threshold.label());
    }
    return failing > 0 ? ExitCode.CHECK_FAILED.code() : ExitCode.OK.code();
  }

  /** The jars and folders of class path entries as given (globs, a.jar:b.jar); checked. */
  static List<Path> classPath(List<String> given) {
    try {
      return ClassPathInput.resolve(given);
    } catch (ClassPathInput.MissingEntry e) {
      throw new ExitException(ExitCode.INPUT_UNREADABLE, e.getMessage(), e);
    }
  }

  /**
   * Scans {@code classPath} to {@code depth} calls, listing the calls of the methods {@code
   * callsOf} names; a class path with no class file is an {@link ExitException}.
   */
  static ScanResult scan(List<Path> classPath, int depth, List<String> callsOf) {
    ScanResult result = new ClassPathScanner(Knowledge.standard(), depth).scan(classPath, callsOf);
    if (result.classes() == 0) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE,
          "no class files in "
              + (classPath.size() == 1 ? classPath.get(0) : classPath.size() + " entries")
              + (result.problems().isEmpty() ? "" : " (" + result.problems().get(0).problem() + ")")
              + jarsInside(classPath));
    }
    return result;
  }

  /**
   * For a class path that is one folder of jars, as a class path takes it (class files only): how
   * to name the jars instead, as java's {@code -cp 'lib/*'} does; else nothing.
   */
  private static String jarsInside(List<Path> classPath) {
    if (classPath.size() != 1 || !Files.isDirectory(classPath.get(0))) {
      return "";
    }
    try (var files = Files.list(classPath.get(0))) {
      long jars = files.filter(f -> f.getFileName().toString().endsWith(".jar")).count();
      return jars == 0
          ? ""
          : "; it holds "
              + jars
              + (jars == 1 ? " jar" : " jars")
              + ": give '"
              + classPath.get(0).resolve("*")
              + "' to scan them";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private String classPathText() {
    try {
      if (classPathFile.toString().equals("-")) {
        return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
      }
      return Files.readString(classPathFile);
    } catch (IOException | RuntimeException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE, "cannot read --classpath-file " + classPathFile, e);
    }
  }
}
