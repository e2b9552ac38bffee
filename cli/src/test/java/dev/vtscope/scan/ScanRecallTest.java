package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.advice.Knowledge;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every culprit that holds a carrier in the shipped samples and in the tests of real libraries is
 * found by a scan of the class path those ran on, with its call chain: the workloads, the tests'
 * own programs, and the libraries' jars (H2, log4j, c3p0, Caffeine, JNA).
 */
class ScanRecallTest {

  /** What holds a carrier, among the kinds of culprit a recording names. */
  private static final Set<String> HOLDERS =
      Set.of(
          "SYNCHRONIZED_BLOCK",
          "SYNCHRONIZED_METHOD",
          "MONITOR_WAIT",
          "MONITOR_ENTER",
          "CLASS_INIT",
          "NATIVE_METHOD",
          "FOREIGN_FUNCTION");

  private static ScanResult result;

  private static Path codeOf(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeAll
  static void scan() throws ClassNotFoundException {
    List<Path> classPath = new ArrayList<>();
    classPath.add(codeOf(dev.vtscope.workloads.Workloads.class));
    classPath.add(codeOf(dev.vtscope.thirdparty.NativeCallback.class));
    for (String library :
        List.of(
            "org.h2.Driver",
            "org.apache.log4j.Logger",
            "com.mchange.v2.c3p0.ComboPooledDataSource",
            "com.mchange.v2.log.MLog",
            "com.github.benmanes.caffeine.cache.Caffeine",
            "com.sun.jna.Native")) {
      classPath.add(codeOf(Class.forName(library, false, ScanRecallTest.class.getClassLoader())));
    }
    result =
        new ClassPathScanner(Knowledge.standard(), ClassPathScanner.DEFAULT_DEPTH).scan(classPath);
  }

  private static List<ScanFinding> findings(String qualifiedMethod) {
    return result.findings().stream()
        .filter(f -> f.qualifiedMethod().equals(qualifiedMethod))
        .toList();
  }

  /** The culprits of the samples' reports that hold a carrier in the application's code. */
  private static Set<String> sampleCulprits() throws IOException {
    Set<String> culprits = new TreeSet<>();
    ObjectMapper json = new ObjectMapper();
    for (String release : List.of("jdk21", "jdk25")) {
      try (Stream<Path> files =
          Files.list(TestRecordings.repoRoot().resolve("samples/" + release))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
          collect(json.readTree(f.toFile()), culprits);
        }
      }
    }
    return culprits;
  }

  private static void collect(JsonNode node, Set<String> culprits) {
    JsonNode culprit = node.get("culprit");
    if (culprit != null
        && culprit.isObject()
        && HOLDERS.contains(culprit.path("kind").asText())
        && culprit.path("owner").asText().equals("application")) {
      culprits.add(culprit.path("class").asText() + "." + culprit.path("method").asText());
    }
    node.forEach(child -> collect(child, culprits));
  }

  @Test
  void everySampleCulpritThatHoldsACarrierIsFoundWithItsChain() throws IOException {
    Set<String> culprits = sampleCulprits();
    assertThat(culprits)
        .as("the samples name culprits of each kind")
        .contains(
            "dev.vtscope.workloads.SharedLockPinning.withMonitor",
            "dev.vtscope.workloads.ConnectionPoolStall$MonitorPool.checkout",
            "dev.vtscope.workloads.ClassInitPinning$SlowInit.<clinit>");
    List<String> missed = new ArrayList<>();
    for (String culprit : culprits) {
      List<ScanFinding> found = findings(culprit);
      if (found.isEmpty() || found.get(0).chain().size() < 2) {
        missed.add(culprit);
      }
    }
    assertThat(missed).as("sample culprits the scan misses").isEmpty();
  }

  @Test
  void theRealLibrariesCulpritsAreFound() {
    assertHolds("org.apache.log4j.AppenderSkeleton.doAppend", FindingKind.SYNCHRONIZED_METHOD);
    assertHolds("org.h2.command.Command.executeQuery", FindingKind.SYNCHRONIZED_BLOCK);
    assertHolds("org.h2.command.CommandRemote.executeQuery", FindingKind.SYNCHRONIZED_BLOCK);
    assertHolds("org.h2.jdbc.JdbcStatement.executeQuery", FindingKind.SYNCHRONIZED_BLOCK);
    assertHolds("org.h2.engine.SessionRemote.prepareCommand", FindingKind.SYNCHRONIZED_METHOD);
    assertHolds(
        "com.mchange.v2.resourcepool.BasicResourcePool.prelimCheckoutResource",
        FindingKind.SYNCHRONIZED_METHOD);
    assertHolds("dev.vtscope.testing.LockedLines.next", FindingKind.SYNCHRONIZED_BLOCK);
    // native frames: JNA's call, and the tests' own JNI method
    assertThat(findings("com.sun.jna.Native.invokeVoid"))
        .extracting(ScanFinding::kind)
        .contains(FindingKind.NATIVE_METHOD);
    assertThat(findings(dev.vtscope.thirdparty.NativeCallback.class.getName() + ".callBack"))
        .extracting(ScanFinding::kind)
        .contains(FindingKind.NATIVE_METHOD);
    // Caffeine's loads run under ConcurrentHashMap.compute's monitor, the JDK's
    assertThat(findings("com.github.benmanes.caffeine.cache.BoundedLocalCache.doComputeIfAbsent"))
        .anySatisfy(
            f -> {
              assertThat(f.kind()).isEqualTo(FindingKind.JDK_MONITOR_CALLBACK);
              assertThat(f.chain().get(f.chain().size() - 1).qualifiedMethod())
                  .isEqualTo("java.util.concurrent.ConcurrentHashMap.compute");
              assertThat(f.fix().knownPin()).isTrue();
            });
  }

  @Test
  void aPinTheKnowledgeNamesCarriesItsFix() {
    ScanFinding pool =
        findings("com.mchange.v2.resourcepool.BasicResourcePool.prelimCheckoutResource").get(0);
    assertThat(pool.fix()).isNotNull();
    assertThat(pool.fix().knownPin()).isTrue();
    assertThat(pool.blocking()).isEqualTo(BlockingKind.WAIT);
    assertThat(pool.artifact()).contains("0.10.2");
  }

  private static void assertHolds(String method, FindingKind kind) {
    assertThat(findings(method))
        .as(method)
        .anySatisfy(
            f -> {
              assertThat(f.kind()).isEqualTo(kind);
              assertThat(f.chain()).hasSizeGreaterThanOrEqualTo(2);
              assertThat(f.chain().get(0).qualifiedMethod()).isEqualTo(method);
              assertThat(f.releases().display()).isEqualTo("21-23");
            });
  }
}
