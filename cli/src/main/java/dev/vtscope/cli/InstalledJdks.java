package dev.vtscope.cli;

import dev.vtscope.record.Jdk;
import dev.vtscope.record.JdkLocator;
import java.nio.file.Path;
import java.util.List;

/** The JDKs installed here, found as {@code record --jdk} and the launcher find them. */
final class InstalledJdks {

  private InstalledJdks() {}

  /** Their home folders, in the order of preference; looked for when first asked. */
  static List<Path> homes() {
    return new JdkLocator(System.getenv(), RecordCommand.vtscopeHome())
        .all().stream().map(Jdk::home).toList();
  }
}
