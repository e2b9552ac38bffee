package dev.vtscope.cli;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.LocalJvm;
import dev.vtscope.live.LocalJvms;
import dev.vtscope.report.Escaping;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope jvms}: the running JVMs that record --pid and watch --pid can attach to. */
final class JvmsCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "jvms",
          "Lists the running JVMs that vtscope can attach to",
          "Lists the JVMs running on this machine that vtscope can attach to (this user's, as 'jcmd"
              + " -l' lists them): pid, JDK release and what each runs. Record one with 'vtscope"
              + " record --pid PID', or watch it with 'vtscope watch --pid PID'.",
          "Examples:",
          "  vtscope jvms",
          "  vtscope record --pid 4242 --duration 30s");

  JvmsCommand() {
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() {
    List<LocalJvm> jvms;
    try {
      jvms = LocalJvms.list();
    } catch (LiveException e) {
      throw ExitException.of(e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (jvms.isEmpty()) {
      out.println(
          "No JVM to attach to: none of this user's runs, or each was started with"
              + " -XX:-UsePerfData or -XX:+DisableAttachMechanism.");
      out.flush();
      return ExitCode.OK.code();
    }
    int first = Knowledge.standard().jdk().virtualThreadsFinalIn();
    int pidWidth =
        Math.max(3, jvms.stream().mapToInt(j -> Long.toString(j.pid()).length()).max().orElse(3));
    int jdkWidth = Math.max(3, jvms.stream().mapToInt(j -> jdk(j, first).length()).max().orElse(3));
    out.printf("%-" + pidWidth + "s  %-" + jdkWidth + "s  %s%n", "PID", "JDK", "MAIN");
    for (LocalJvm jvm : jvms) {
      out.printf(
          "%-" + pidWidth + "d  %-" + jdkWidth + "s  %s%n",
          jvm.pid(),
          jdk(jvm, first),
          // the main class and arguments are the other program's words: shown, never obeyed
          jvm.main().isEmpty() ? "(not stated)" : Escaping.terminal(jvm.main()));
    }
    out.flush();
    return ExitCode.OK.code();
  }

  /** The JDK column: the version, and what a release before virtual threads lacks. */
  private static String jdk(LocalJvm jvm, int virtualThreadsFrom) {
    if (jvm.javaVersion() == null) {
      return "?";
    }
    return jvm.feature() > 0 && jvm.feature() < virtualThreadsFrom
        ? jvm.javaVersion() + " (no virtual threads)"
        : jvm.javaVersion();
  }
}
