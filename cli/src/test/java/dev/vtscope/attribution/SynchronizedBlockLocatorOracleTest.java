package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * vtscope's own class-file reading against ASM's, on the classes of the JDK running the tests:
 * every class of java.base, whose code the virtual threads of a recording run through, and a fixed
 * quarter of the other modules' (javac's, javap's and JIT-era code, old and new bytecode shapes,
 * switches, wide instructions): the same synchronized blocks with the same lines, and the same line
 * for every instruction. The quarter is chosen by the class's name, the same in every run: ASM's
 * reading of a class is most of the test's time, and a quarter of the others still puts thousands
 * of classes from nearly every module beside java.base's.
 */
class SynchronizedBlockLocatorOracleTest {

  /** Whether the oracle reads this class: all of java.base, a quarter of the rest. */
  private static boolean compared(Path file) {
    String name = file.toString();
    return name.startsWith("/modules/java.base/") || Math.floorMod(name.hashCode(), 4) == 0;
  }

  @Test
  void findsTheBlocksAndLinesAsmFindsInTheJdksClasses() throws IOException {
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    List<Path> classes;
    try (Stream<Path> files = Files.walk(jrt.getPath("/modules"))) {
      classes =
          files
              .filter(f -> f.toString().endsWith(".class"))
              .filter(SynchronizedBlockLocatorOracleTest::compared)
              .toList();
    }
    assertThat(classes).hasSizeGreaterThan(8_000);
    assertThat(classes.stream().map(f -> f.getName(1).toString()).distinct())
        .as("classes of most of the JDK's modules")
        .hasSizeGreaterThan(20);
    long methodsWithBlocks = 0;
    long blocks = 0;
    List<String> differences = new ArrayList<>();
    for (Path file : classes) {
      byte[] bytes = Files.readAllBytes(file);
      AsmSynchronizedBlocks asm;
      try {
        asm = new AsmSynchronizedBlocks(bytes);
      } catch (RuntimeException e) {
        continue; // module-info and the like
      }
      SynchronizedBlockLocator own = new SynchronizedBlockLocator(bytes);
      for (MethodCode method : MethodCode.read(bytes)) {
        String name = method.nameAndDescriptor();
        List<SynchronizedBlockLocator.Region> expected =
            asm.regions(name).stream().map(AsmSynchronizedBlocks.Region::own).toList();
        if (!own.regions(name).equals(expected)) {
          differences.add(file + " " + name + ": " + own.regions(name) + " vs " + expected);
        }
        if (!expected.isEmpty()) {
          methodsWithBlocks++;
          blocks += expected.size();
        }
        for (int bci = 0; bci < method.code().length; bci += method.instructionLength(bci)) {
          int line = method.lineAt(bci);
          if (own.matches(name, bci, line) != asm.matches(name, bci, line)
              || (line >= 0 && !asm.matches(name, bci, line))) {
            differences.add(file + " " + name + " line at " + bci);
            break;
          }
        }
      }
    }
    assertThat(differences).isEmpty();
    // the comparison covered many blocks, not a handful
    assertThat(methodsWithBlocks).isGreaterThan(500);
    assertThat(blocks).isGreaterThan(methodsWithBlocks);
  }

  @Test
  void damagedClassFilesAreRefusedWithAnIllegalArgumentExceptionOnly() throws IOException {
    byte[] original;
    try (var in =
        Object.class.getResourceAsStream("/java/util/concurrent/ConcurrentHashMap.class")) {
      original = in.readAllBytes();
    }
    java.util.Random random = new java.util.Random(20261123);
    int refused = 0;
    for (int i = 0; i < 3000; i++) {
      byte[] bytes = original.clone();
      switch (i % 3) {
        case 0 -> bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        case 1 -> {
          for (int k = 0; k < 8; k++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
          }
        }
        default -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
      }
      try {
        new SynchronizedBlockLocator(bytes);
      } catch (IllegalArgumentException e) {
        refused++;
      }
    }
    assertThat(refused).as("truncations at least are refused").isGreaterThan(900);
  }
}
