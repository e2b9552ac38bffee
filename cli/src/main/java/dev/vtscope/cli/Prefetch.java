package dev.vtscope.cli;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.report.Wording;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * What every analysis needs, whatever recording it is given, started on a second thread while the
 * main one builds the command line: vtscope's knowledge of libraries and JDKs, the report's
 * wording, the list of installed JDKs (whose class files check the recording's JDK frames) and the
 * tables of JDK classes' synchronized blocks vtscope ships for the releases none of them is of. On
 * a small recording these take about as long as reading it, and the command line takes longer than
 * both.
 *
 * <p>Nothing here has an effect the command could see other than time: the knowledge and wording
 * are loaded once per process anyway, and the JDK list is handed only to the command that started
 * it. A failure is left for the main thread, which meets it again and reports it.
 */
final class Prefetch implements AutoCloseable {

  /** The commands that analyse recordings; the others gain nothing from it. */
  private static final Set<String> ANALYSES = Set.of("analyze", "analyse", "check", "diff");

  private static final ThreadLocal<Prefetch> CURRENT = new ThreadLocal<>();

  private final CompletableFuture<List<Path>> jdkHomes = new CompletableFuture<>();

  private Prefetch() {}

  /** Starts it for an analysing command; the returned handle ends its scope when closed. */
  static Prefetch start(String[] args) {
    Prefetch prefetch = new Prefetch();
    if (args.length > 0 && ANALYSES.contains(args[0])) {
      CURRENT.set(prefetch);
      Thread thread = new Thread(prefetch::run, "vtscope-prefetch");
      thread.setDaemon(true);
      thread.start();
    }
    return prefetch;
  }

  private void run() {
    try {
      Knowledge.standard();
      List<Path> homes = InstalledJdks.homes();
      jdkHomes.complete(homes);
      Wording.standard();
      ClassBytesSource.readShippedJdkTables(homes);
    } catch (RuntimeException | Error e) {
      jdkHomes.completeExceptionally(e);
    }
  }

  /**
   * The installed JDKs' homes: the list found ahead for the running command, else one found when
   * first asked.
   */
  static Supplier<List<Path>> jdkHomes() {
    Prefetch prefetch = CURRENT.get();
    if (prefetch == null) {
      return InstalledJdks::homes;
    }
    CompletableFuture<List<Path>> homes = prefetch.jdkHomes;
    return () -> {
      try {
        return homes.join();
      } catch (CompletionException e) {
        return InstalledJdks.homes(); // fails again here, where it is reported
      }
    };
  }

  @Override
  public void close() {
    if (CURRENT.get() == this) {
      CURRENT.remove();
    }
  }
}
