package dev.vtscope.live;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * One running JVM, attached to over the Attach API, which runs the JDK's diagnostic commands
 * ({@code JFR.start}, {@code Thread.print}, …) as {@code jcmd} does. An attach leaves nothing
 * behind in the target but the attach listener thread the JVM starts on the first one.
 *
 * <p>The Attach API's public part has no call for diagnostic commands; {@code jcmd} uses a public
 * method of the JDK's own implementation class, which the jar's manifest makes reachable ({@code
 * Add-Exports: jdk.attach/sun.tools.attach}), as does {@code --add-exports} on a command line.
 */
public final class AttachedJvm implements AutoCloseable {

  private static final String IMPLEMENTATION = "sun.tools.attach.HotSpotVirtualMachine";

  private final long pid;
  private final VirtualMachine vm;

  private AttachedJvm(long pid, VirtualMachine vm) {
    this.pid = pid;
    this.vm = vm;
  }

  /**
   * Attaches to the JVM with this pid.
   *
   * @throws LiveException when there is none, or it does not accept the attach
   */
  public static AttachedJvm attach(long pid) throws LiveException {
    requireAttachApi();
    if (pid == ProcessHandle.current().pid()) {
      throw new LiveException(
          LiveException.Reason.NOT_ATTACHABLE, "pid " + pid + " is vtscope itself");
    }
    if (ProcessHandle.of(pid).isEmpty()) {
      throw new LiveException(
          LiveException.Reason.NOT_ATTACHABLE,
          "no process with pid " + pid + " ('vtscope jvms' lists the JVMs to attach to)");
    }
    try {
      return new AttachedJvm(pid, VirtualMachine.attach(String.valueOf(pid)));
    } catch (AttachNotSupportedException | IOException e) {
      throw new LiveException(
          LiveException.Reason.NOT_ATTACHABLE,
          "cannot attach to pid "
              + pid
              + " ("
              + oneLine(e)
              + "): it must be a JVM of this user on this machine, started without"
              + " -XX:+DisableAttachMechanism; 'vtscope jvms' lists the JVMs to attach to",
          e);
    }
  }

  /**
   * Checks that the Java runtime running vtscope has the Attach API (a runtime made with jlink may
   * leave the {@code jdk.attach} module out).
   */
  static void requireAttachApi() throws LiveException {
    if (ModuleLayer.boot().findModule("jdk.attach").isEmpty()) {
      throw new LiveException(
          LiveException.Reason.NO_ATTACH_API,
          "the Java runtime running vtscope ("
              + System.getProperty("java.home")
              + ") has no Attach API (module jdk.attach); run vtscope on a full JDK 21 or later"
              + " (set JAVA_HOME to one)");
    }
  }

  public long pid() {
    return pid;
  }

  /** The JVM's system properties. */
  public Properties systemProperties() throws LiveException {
    try {
      return vm.getSystemProperties();
    } catch (IOException e) {
      throw failed("reading its system properties", e);
    }
  }

  /**
   * Runs a diagnostic command, e.g. {@code JFR.check}, and returns what the JVM answered.
   *
   * @throws LiveException when the command cannot be sent, or the JVM answers with an error
   */
  public String execute(String command) throws LiveException {
    Method execute;
    try {
      execute = Class.forName(IMPLEMENTATION).getMethod("executeJCmd", String.class);
    } catch (ReflectiveOperationException e) {
      throw new LiveException(
          LiveException.Reason.NO_ATTACH_API,
          "the Java runtime running vtscope ("
              + System.getProperty("java.home")
              + ") has no HotSpot Attach API; run vtscope on a HotSpot JDK 21 or later",
          e);
    }
    try (InputStream in = (InputStream) execute.invoke(vm, command)) {
      // Read into the start of a buffer, as jcmd does: the Attach API's stream of JDK 25 fails on
      // a read at an offset near the end of the array (readAllBytes does that past 16 KB).
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        answer.write(buffer, 0, n);
      }
      return answer.toString(StandardCharsets.UTF_8);
    } catch (IllegalAccessException e) {
      throw new LiveException(
          LiveException.Reason.NO_ATTACH_API,
          "this JVM may not send diagnostic commands: run vtscope with ./vtscope or with"
              + " 'java --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED -jar vtscope.jar'",
          e);
    } catch (InvocationTargetException e) {
      throw failed(command, e.getCause() == null ? e : e.getCause());
    } catch (IOException e) {
      throw failed(command, e);
    }
  }

  private LiveException failed(String what, Throwable e) {
    if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      // the command's name only: its options (files of vtscope's own) say nothing to the user
      int space = what.indexOf(' ');
      return new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "pid "
              + pid
              + " exited ("
              + (space < 0 ? what : what.substring(0, space))
              + " did not run)",
          e);
    }
    return new LiveException(
        LiveException.Reason.COMMAND_FAILED,
        "pid " + pid + ": " + what + " failed: " + oneLine(e),
        e);
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return e.getClass().getSimpleName();
    }
    String line = message.strip();
    int newline = line.indexOf('\n');
    return newline < 0 ? line : line.substring(0, newline).strip();
  }

  @Override
  public void close() {
    try {
      vm.detach();
    } catch (IOException e) {
      // the JVM is gone: nothing to detach from
    }
  }
}
