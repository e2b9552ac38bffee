package dev.vtscope.live;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The JVMs of this machine that vtscope can attach to: those the Attach API lists (the JVMs of this
 * user that publish their performance data, as {@code jcmd -l} shows them), each with its JDK
 * release, read from its runtime's {@code release} file without attaching to it.
 */
public final class LocalJvms {

  private LocalJvms() {}

  /**
   * Every attachable JVM but the one running vtscope, by pid.
   *
   * @throws LiveException when the Java runtime running vtscope has no Attach API
   */
  public static List<LocalJvm> list() throws LiveException {
    AttachedJvm.requireAttachApi();
    long self = ProcessHandle.current().pid();
    List<LocalJvm> jvms = new ArrayList<>();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      long pid;
      try {
        pid = Long.parseLong(d.id());
      } catch (NumberFormatException e) {
        continue; // not a local process
      }
      if (pid != self) {
        jvms.add(describe(pid, d.displayName()));
      }
    }
    jvms.sort(Comparator.comparingLong(LocalJvm::pid));
    return List.copyOf(jvms);
  }

  /** The JVM with this pid, when the Attach API lists it. */
  public static Optional<LocalJvm> find(long pid) throws LiveException {
    return list().stream().filter(j -> j.pid() == pid).findFirst();
  }

  private static LocalJvm describe(long pid, String displayName) {
    String main = displayName == null || displayName.equals(String.valueOf(pid)) ? "" : displayName;
    Path home =
        ProcessHandle.of(pid).flatMap(p -> p.info().command()).map(LocalJvms::homeOf).orElse(null);
    String version = home == null ? null : javaVersion(home);
    return new LocalJvm(pid, main, version, feature(version), version == null ? null : home);
  }

  /** The runtime folder of a {@code java} executable: the folder above its {@code bin}. */
  private static Path homeOf(String executable) {
    try {
      Path real = Path.of(executable).toRealPath();
      Path bin = real.getParent();
      return bin == null || bin.getParent() == null ? null : bin.getParent();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** {@code JAVA_VERSION} of a runtime's {@code release} file, or null. */
  static String javaVersion(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return null;
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(release)) {
      properties.load(in);
    } catch (IOException e) {
      return null;
    }
    String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "").trim();
    return version.isEmpty() ? null : version;
  }

  /** The feature release of a version string ({@code 21.0.8}, {@code 25}, {@code 1.8.0_402}). */
  static int feature(String version) {
    if (version == null) {
      return 0;
    }
    String v = version.startsWith("1.") ? version.substring(2) : version;
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
  }
}
