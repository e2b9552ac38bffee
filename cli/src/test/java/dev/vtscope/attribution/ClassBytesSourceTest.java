package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassBytesSourceTest {

  @TempDir Path dir;

  @Test
  void aRelativeRecordedClassPathEntryIsLookedForBesideTheRecordingWhenUserDirIsUnknown()
      throws IOException {
    // the program ran in dir with -cp app/classes and wrote its recording there
    Path classes = Files.createDirectories(dir.resolve("app/classes/com/acme"));
    byte[] bytes;
    try (var in = Object.class.getResourceAsStream("/java/lang/Object.class")) {
      bytes = in.readAllBytes();
    }
    Files.write(classes.resolve("Cache.class"), bytes);
    try (ClassBytesSource source =
        ClassBytesSource.of(
            List.of(),
            List.of(new ClassBytesSource.RecordedClassPath("app/classes", null, dir)),
            null,
            0,
            List::of)) {
      assertThat(source.find("com.acme.Cache")).isPresent();
      assertThat(source.unresolvedRelativeEntries()).isEmpty();
    }
    // entries found neither beside the recording nor here are said, so a report can tell
    try (ClassBytesSource source =
        ClassBytesSource.of(
            List.of(),
            List.of(
                new ClassBytesSource.RecordedClassPath(
                    "app/classes:target/lib/*:/opt/absolute.jar", null, dir)),
            null,
            0,
            List::of)) {
      assertThat(source.unresolvedRelativeEntries()).containsExactly("target/lib/*");
    }
    // with no folder to go by, the same entry means nothing here
    try (ClassBytesSource source =
        ClassBytesSource.of(
            List.of(),
            List.of(new ClassBytesSource.RecordedClassPath("app/classes", null, null)),
            null,
            0,
            List::of)) {
      assertThat(source.find("com.acme.Cache")).isEmpty();
    }
  }
}
