package dev.vtscope.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the launcher runs once per JDK and jar, after the first analysis, to list the classes of its
 * class-data archive ({@code java -Dvtscope.archiveTraining=true -jar vtscope.jar RECORDING...}):
 * the common analyses of the recordings it is given (the repository's samples), in one JVM, their
 * output dropped. An archive of the classes of whatever the user ran first would leave out those of
 * every other format, command and reader: those then load from the jar at each start (a JSON report
 * of a small recording took 208-275 ms against 177-233 ms after a first analysis in text).
 */
final class ArchiveTraining {

  private ArchiveTraining() {}

  /** Runs the analyses; exits 0 when each ended as an analysis does (0, or a verdict 6 or 7). */
  public static void main(String[] recordings) {
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    List<String[]> runs = new ArrayList<>();
    for (String recording : recordings) {
      runs.add(new String[] {"analyze", "-q", "--format", "json", recording});
      runs.add(new String[] {"analyze", "-q", recording});
      runs.add(new String[] {"analyze", "-q", "--format", "markdown", recording});
      runs.add(new String[] {"analyze", "-q", "--reader", "jdk", "--format", "json", recording});
      runs.add(new String[] {"check", "-q", recording});
      runs.add(new String[] {"diff", "-q", recording, recording});
    }
    int failed = 0;
    for (String[] run : runs) {
      int code = VtScope.run(run, none, none);
      if (code != ExitCode.OK.code()
          && code != ExitCode.CHECK_FAILED.code()
          && code != ExitCode.REGRESSION.code()) {
        failed++;
      }
    }
    System.exit(failed == 0 && !runs.isEmpty() ? 0 : 1);
  }
}
