package dev.vtscope.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code vtscope} command: subcommands, error mapping, and the only call to System.exit. */
@Command(
    name = "vtscope",
    mixinStandardHelpOptions = true,
    versionProvider = VtScope.Version.class,
    description = "Explains why virtual threads stall, from Java Flight Recorder recordings.",
    subcommands = {
      AnalyzeCommand.class,
      CheckCommand.class,
      DiffCommand.class,
      RecordCommand.class,
      WorkloadsCommand.class,
      RedactCommand.class,
      CommandLine.HelpCommand.class
    },
    footerHeading = "%nExit codes:%n",
    footer = "%s")
public final class VtScope {

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs vtscope with the given streams; returns the exit code. Tests call this. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = commandLine(out, err);
    return commandLine.execute(args);
  }

  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine commandLine = new CommandLine(new VtScope());
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(new ErrorReporter());
    commandLine.setParameterExceptionHandler(new ErrorReporter());
    commandLine.setExitCodeExceptionMapper(t -> ExitCode.INTERNAL_ERROR.code());
    String table = ExitCode.table();
    commandLine.getCommandSpec().usageMessage().footer(table);
    for (CommandLine sub : commandLine.getSubcommands().values()) {
      sub.getCommandSpec().usageMessage().footerHeading("%nExit codes:%n").footer(table);
    }
    return commandLine;
  }

  /** The version from the jar's build properties. */
  static String version() {
    Properties properties = new Properties();
    try (InputStream in = VtScope.class.getResourceAsStream("/vtscope-build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return "unknown";
    }
    return properties.getProperty("version", "unknown");
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"vtscope " + version(), "running on Java " + Runtime.version()};
    }
  }
}
