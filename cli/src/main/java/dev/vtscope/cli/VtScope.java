package dev.vtscope.cli;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** The {@code vtscope} command: subcommands, error mapping, and the only call to System.exit. */
public final class VtScope {

  public static void main(String[] args) {
    if (Boolean.getBoolean("vtscope.archiveTraining")) {
      // the launcher's: started as every command is (java -jar), so that it lists those classes too
      ArchiveTraining.main(args);
      return;
    }
    // standard output written straight, so that a failed write is known with its reason
    PrintWriter out =
        new CheckedWriter(
            new java.io.OutputStreamWriter(new java.io.FileOutputStream(FileDescriptor.out)), true);
    int code = run(args, out, new PrintWriter(System.err, true));
    if (code == ExitCode.OUT_OF_MEMORY.code() && !exitCanLog()) {
      // the heap is too small even for System.exit's own logger, which would print a second line
      // of its own; the shutdown hooks would fail the same way
      Runtime.getRuntime().halt(code);
    }
    System.exit(code);
  }

  /**
   * Whether System.exit can look up the logger it logs to (JDK 21+): the first lookup loads classes
   * and allocates, which fails on a heap the command exhausted and could not free.
   */
  private static boolean exitCanLog() {
    System.gc();
    try {
      System.getLogger("java.lang.Runtime").isLoggable(System.Logger.Level.DEBUG);
      return true;
    } catch (Throwable exhausted) {
      return false;
    }
  }

  /** The subcommands, in the order help lists them. */
  private static final List<String> SUBCOMMANDS =
      List.of(
          "analyze",
          "explore",
          "check",
          "scan",
          "diff",
          "merge",
          "record",
          "watch",
          "dump",
          "jvms",
          "workloads",
          "redact",
          "completion",
          "exit-codes",
          "help");

  /**
   * A new instance of a subcommand. A switch rather than a map of constructor references: each
   * reference is a class the JVM spins at start-up, before every command. A name in {@link
   * #SUBCOMMANDS} without a case here fails the top-level help, which adds every command
   * (HelpTest).
   */
  private static Object newCommand(String name) {
    return switch (name) {
      case "analyze" -> new AnalyzeCommand().spec();
      case "explore" -> new ExploreCommand().spec();
      case "check" -> new CheckCommand().spec();
      case "scan" -> new ScanCommand().spec();
      case "diff" -> new DiffCommand().spec();
      case "merge" -> new MergeCommand().spec();
      case "record" -> new RecordCommand().spec();
      case "watch" -> new WatchCommand().spec();
      case "dump" -> new DumpCommand().spec();
      case "jvms" -> new JvmsCommand().spec();
      case "workloads" -> new WorkloadsCommand().spec();
      case "redact" -> new RedactCommand().spec();
      case "completion" -> new CompletionCommand().spec();
      case "exit-codes" -> new ExitCodesCommand().spec();
      case "help" -> new CommandLine.HelpCommand();
      default -> throw new IllegalArgumentException("no such command: " + name);
    };
  }

  /** Runs vtscope with the given streams; returns the exit code. Tests call this. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    // Taken before anything can exhaust the heap, so that the handler loads no class: loading
    // ExitCode there failed in its turn when the heap ran out before the command line was built.
    int exhausted = ExitCode.OUT_OF_MEMORY.code();
    try (Prefetch prefetch = Prefetch.start(args)) {
      CommandLine commandLine = commandLine(out, err, args.length > 0 ? args[0] : null);
      if (args.length == 0) {
        // no command: the list of them, as --help shows it, and the exit code of bad usage, so
        // that a script whose command came out empty does not pass
        commandLine.usage(out);
        return outputWritten(commandLine, out, err)
            ? ExitCode.USAGE.code()
            : ExitCode.INPUT_UNREADABLE.code();
      }
      int code = commandLine.execute(args);
      // a command that failed said so in its line, which stays the one line
      boolean said = ((ErrorReporter) commandLine.getExecutionExceptionHandler()).said();
      return said || outputWritten(commandLine, out, err) ? code : ExitCode.INPUT_UNREADABLE.code();
    } catch (OutOfMemoryError e) {
      // What was held is released by now: enough is free to say so in one line.
      String command = args.length > 0 && SUBCOMMANDS.contains(args[0]) ? " " + args[0] : "";
      err.println(outOfMemory(command, Runtime.getRuntime().maxMemory()));
      return exhausted;
    }
  }

  /**
   * Whether all the command printed reached standard output; if not, says so in one line. A pipe
   * whose reader went away ({@code vtscope analyze a.jfr | head -1}) had all it wanted: that ends
   * the output quietly, with the command's own exit code, as for a program a closed pipe stops.
   */
  private static boolean outputWritten(CommandLine commandLine, PrintWriter out, PrintWriter err) {
    if (!out.checkError()) {
      return true;
    }
    java.io.IOException failure = out instanceof CheckedWriter checked ? checked.failure() : null;
    if (CheckedWriter.closedPipe(failure)) {
      return true;
    }
    CommandLine command = commandLine;
    for (CommandLine.ParseResult r = commandLine.getParseResult();
        r != null && r.hasSubcommand();
        r = r.subcommand()) {
      command = r.subcommand().commandSpec().commandLine();
    }
    err.println(
        command.getCommandSpec().qualifiedName()
            + ": cannot write standard output: "
            + (failure == null || failure.getMessage() == null
                ? "the write failed"
                : failure.getMessage()));
    err.flush();
    return false;
  }

  /** The one line an exhausted heap gets: how large it was and how to give more. */
  static String outOfMemory(String command, long maxHeapBytes) {
    long mb = maxHeapBytes >> 20;
    long more = Math.max(1, (maxHeapBytes >> 30) * 2 + 1);
    return "vtscope"
        + command
        + ": out of memory: the recordings need more than the "
        + mb
        + " MB heap this JVM has; give it more with VTSCOPE_JAVA_OPTS=-Xmx"
        + more
        + "g (./vtscope) or java -Xmx"
        + more
        + "g -jar vtscope.jar";
  }

  /**
   * The command line. Picocli reads every subcommand's annotations when it is added, which is most
   * of the start-up time of a short run; when the first argument names a subcommand other than
   * help, only that one is added (its usage, errors and exit codes are the same).
   */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, String first) {
    CommandSpec spec =
        Specs.command(
            new VtScope(),
            "vtscope",
            null,
            "Explains why virtual threads stall, from Java Flight Recorder recordings.");
    Specs.helpOptions(spec);
    spec.versionProvider(new Version());
    spec.usageMessage().footerHeading("%nExit codes:%n");
    CommandLine commandLine = new CommandLine(spec);
    String named = "analyse".equals(first) ? "analyze" : first;
    boolean one = named != null && SUBCOMMANDS.contains(named) && !"help".equals(named);
    for (String name : SUBCOMMANDS) {
      if (!one || name.equals(named)) {
        commandLine.addSubcommand(name, newCommand(name));
      }
    }
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.registerConverter(java.nio.file.Path.class, new Specs.PathConverter());
    ErrorReporter errors = new ErrorReporter();
    commandLine.setExecutionExceptionHandler(errors);
    commandLine.setParameterExceptionHandler(errors);
    commandLine.setExitCodeExceptionMapper(errors);
    String table = ExitCode.table();
    commandLine.getCommandSpec().usageMessage().footer(table);
    // The table once, in the top-level help; each command's help says where it is.
    CommandLine exitCodes = commandLine.getSubcommands().get("exit-codes");
    if (exitCodes != null) {
      exitCodes
          .getCommandSpec()
          .usageMessage()
          .customSynopsis("vtscope help exit-codes")
          .footerHeading("%n")
          .footer(table);
    }
    for (CommandLine sub : commandLine.getSubcommands().values()) {
      if (sub != exitCodes) {
        sub.getCommandSpec()
            .usageMessage()
            .footerHeading("%n")
            .footer("Exit codes: vtscope help exit-codes");
      }
    }
    offerHiddenCommandsToHelp(commandLine);
    HelpLayout.apply(commandLine);
    return commandLine;
  }

  /**
   * Completion offers {@code help} the commands the top-level help lists; the hidden ones ({@code
   * exit-codes}, read as {@code vtscope help exit-codes}) become its COMMAND's completion
   * candidates.
   */
  private static void offerHiddenCommandsToHelp(CommandLine commandLine) {
    CommandLine help = commandLine.getSubcommands().get("help");
    if (help == null || help.getCommandSpec().positionalParameters().isEmpty()) {
      return;
    }
    List<String> hidden =
        commandLine.getSubcommands().entrySet().stream()
            .filter(e -> e.getValue().getCommandSpec().usageMessage().hidden())
            .map(Map.Entry::getKey)
            .toList();
    CommandSpec spec = help.getCommandSpec();
    PositionalParamSpec command = spec.positionalParameters().get(0);
    spec.remove(command);
    spec.addPositional(command.toBuilder().completionCandidates(hidden).build());
  }

  /** The version from the jar's build properties. */
  static String version() {
    return buildFact("version");
  }

  /**
   * A fact of the jar's build properties: its version, the commit it was built from, when it was
   * built; "unknown" for one they do not hold (a jar built outside a git checkout has no commit).
   */
  static String buildFact(String name) {
    Properties properties = new Properties();
    try (InputStream in = VtScope.class.getResourceAsStream("/vtscope-build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return "unknown";
    }
    String value = properties.getProperty(name, "");
    // a fact the build did not fill in keeps its ${...} placeholder
    return value.isBlank() || value.startsWith("${") ? "unknown" : value;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "vtscope "
            + version()
            + " (commit "
            + buildFact("commit")
            + ", built "
            + buildFact("built")
            + ")",
        "running on Java " + Runtime.version()
      };
    }
  }
}
