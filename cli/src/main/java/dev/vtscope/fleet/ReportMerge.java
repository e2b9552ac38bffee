package dev.vtscope.fleet;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.advice.Advice;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Cores;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Note;
import dev.vtscope.analysis.RecordingSet;
import dev.vtscope.report.JsonReportReader;
import dev.vtscope.report.Report;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code vtscope merge}'s work: the reports named, added up. Two reads of each report: the first
 * takes only the recordings it names (so that the same recording reached twice, by the same report
 * given twice or by a merge given beside its parts, counts once), the second the whole report, a
 * batch of reports per task on every core; a batch is added up as soon as it is read, so memory
 * holds the batches in flight and the sums, whatever the number of reports.
 */
public final class ReportMerge {

  /** Reports added up by one task before their sum is kept. */
  static final int BATCH = 64;

  private final ObjectMapper mapper = new ObjectMapper();

  /** Why a report cannot be added up: it cannot be read, or it is not a report of analyze. */
  public static final class ReportException extends Exception {
    private final boolean unreadable;

    ReportException(String message, boolean unreadable, Throwable cause) {
      super(message, cause);
      this.unreadable = unreadable;
    }

    /** Whether the file could not be read at all (missing, a folder, no permission). */
    public boolean unreadable() {
      return unreadable;
    }
  }

  /**
   * The sum of {@code reports}, {@code -} naming standard input (read once).
   *
   * @throws ReportException naming the first report that cannot be read or is not a report of
   *     analyze, or two that share some of their recordings but not all
   */
  public Report.Analyzed merge(List<Path> given) throws ReportException {
    List<Path> reports = expand(given);
    byte[] standardInput = null;
    if (reports.stream().anyMatch(r -> r.toString().equals("-"))) {
      try {
        standardInput = System.in.readAllBytes();
      } catch (IOException e) {
        throw new ReportException("standard input cannot be read: " + e.getMessage(), true, e);
      }
    }
    Sources sources = new Sources(reports, standardInput);
    List<List<InputFacts>> recordings = new ArrayList<>(reports.size());
    for (int i = 0; i < reports.size(); i++) {
      recordings.add(null);
    }
    run(reports.size(), i -> recordings.set(i, recordingsOf(sources, i)));
    RecordingSet.Distinct distinct;
    try {
      distinct = RecordingSet.distinct(recordings, reports.stream().map(Path::toString).toList());
    } catch (IllegalArgumentException e) {
      throw new ReportException(e.getMessage(), false, e);
    }
    List<Integer> kept = distinct.kept();
    int batches = (kept.size() + BATCH - 1) / BATCH;
    Analysis[] sums = new Analysis[batches];
    Advice[] advices = new Advice[batches];
    List<List<RecordingSet.PartNotes>> notes = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      notes.add(null);
    }
    run(
        batches,
        b -> {
          List<Analysis> parts = new ArrayList<>();
          List<Advice> partAdvice = new ArrayList<>();
          List<RecordingSet.PartNotes> partNotes = new ArrayList<>();
          for (int k = b * BATCH; k < Math.min(kept.size(), (b + 1) * BATCH); k++) {
            Report.Analyzed report = report(sources, kept.get(k));
            parts.add(report.analysis());
            partAdvice.add(report.advice());
            partNotes.add(RecordingSet.PartNotes.of(report.analysis()));
          }
          try {
            sums[b] = RecordingSet.sum(parts, List.of());
          } catch (IllegalArgumentException e) {
            throw new ReportException(e.getMessage(), false, e);
          }
          advices[b] = Advice.combine(parts, partAdvice);
          notes.set(b, partNotes);
        });
    List<RecordingSet.PartNotes> allNotes = new ArrayList<>();
    notes.forEach(allNotes::addAll);
    Analysis sum;
    try {
      sum = RecordingSet.sum(List.of(sums), allNotes);
    } catch (IllegalArgumentException e) {
      throw new ReportException(e.getMessage(), false, e);
    }
    Advice advice = Advice.combine(List.of(sums), List.of(advices));
    if (!distinct.left().isEmpty()) {
      List<Note> said = new ArrayList<>();
      said.add(
          new Note(
              "duplicate-input",
              Note.Severity.WARNING,
              Message.of(
                  "note.duplicate-input",
                  "inputs",
                  distinct.left().stream().map(i -> reports.get(i).toString()).toList())));
      said.addAll(sum.notes());
      sum = sum.withNotes(said);
    }
    return new Report.Analyzed(sum, advice);
  }

  /** The reports named: a folder stands for the {@code .json} files in it, by name. */
  private static List<Path> expand(List<Path> given) throws ReportException {
    List<Path> reports = new ArrayList<>();
    for (Path path : given) {
      if (!path.toString().equals("-") && Files.isDirectory(path)) {
        try (java.util.stream.Stream<Path> files = Files.list(path)) {
          List<Path> json =
              files
                  .filter(f -> f.getFileName().toString().endsWith(".json"))
                  .filter(Files::isRegularFile)
                  .sorted()
                  .toList();
          if (json.isEmpty()) {
            throw new ReportException(path + ": a folder with no .json report in it", true, null);
          }
          reports.addAll(json);
        } catch (IOException e) {
          throw unreadable(path, e);
        }
      } else {
        reports.add(path);
      }
    }
    return reports;
  }

  /** A task of {@link #run}; its exception stops the others. */
  private interface Task {
    void run(int index) throws ReportException;
  }

  /** Runs {@code task} for 0 to {@code count} - 1 on every core; the first failure is thrown. */
  private static void run(int count, Task task) throws ReportException {
    try {
      Cores.forEach(
          count,
          i -> {
            try {
              task.run(i);
            } catch (ReportException e) {
              throw new Failed(e);
            }
          });
    } catch (Failed f) {
      throw f.problem;
    }
  }

  /** Carries a report's problem out of a task. */
  private static final class Failed extends RuntimeException {
    private final ReportException problem;

    Failed(ReportException problem) {
      super(problem.getMessage(), problem, false, false);
      this.problem = problem;
    }
  }

  /** The recordings report {@code i} names: its {@code inputs}, nothing else parsed into a tree. */
  private List<InputFacts> recordingsOf(Sources sources, int i) throws ReportException {
    Path report = sources.reports.get(i);
    try (InputStream in = sources.open(i);
        JsonParser parser = mapper.getFactory().createParser(in)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw notAReport(report, "an empty file, not a report of vtscope analyze", null);
      }
      if (first != JsonToken.START_OBJECT) {
        throw notAReport(
            report,
            "not a vtscope analysis report (vtscope analyze --format json writes one)",
            null);
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        if (field.equals("inputs")) {
          return JsonReportReader.inputs(mapper.readTree(parser));
        }
        if (field.equals("checks") || field.equals("before") || field.equals("changes")) {
          throw notAReport(
              report,
              "a report of check or diff, not of analyze: merge takes vtscope analyze --format json",
              null);
        }
        parser.skipChildren();
      }
      throw notAReport(report, "not a vtscope analysis report: it names no recording", null);
    } catch (JsonReportReader.NotAReportException e) {
      throw notAReport(report, e.getMessage(), e);
    } catch (JsonProcessingException e) {
      throw notJson(report, e);
    } catch (IOException e) {
      throw unreadable(report, e);
    }
  }

  /** Report {@code i} read whole. */
  private Report.Analyzed report(Sources sources, int i) throws ReportException {
    Path report = sources.reports.get(i);
    JsonNode root;
    try (InputStream in = sources.open(i)) {
      root = mapper.readTree(in);
    } catch (JsonProcessingException e) {
      throw notJson(report, e);
    } catch (IOException e) {
      throw unreadable(report, e);
    }
    try {
      return JsonReportReader.read(root);
    } catch (JsonReportReader.NotAReportException e) {
      throw notAReport(report, e.getMessage(), e);
    }
  }

  private static ReportException notAReport(Path report, String message, Exception cause) {
    return new ReportException(report + ": " + message, false, cause);
  }

  private static ReportException notJson(Path report, JsonProcessingException cause) {
    String what =
        cause instanceof com.fasterxml.jackson.core.io.JsonEOFException || atItsEnd(report, cause)
            ? "ends before its JSON does (cut short?)"
            : "not JSON (merge takes the reports of vtscope analyze --format json, not"
                + " recordings)";
    return new ReportException(report + ": " + what, false, cause);
  }

  /**
   * Whether a file that opens a JSON object failed to parse within its last bytes: a report cut
   * inside {@code false} or a number fails on that word, which the cut made unknown, not on an
   * early end.
   */
  private static boolean atItsEnd(Path report, JsonProcessingException cause) {
    long at = cause.getLocation() == null ? -1 : cause.getLocation().getByteOffset();
    try {
      if (at < 0 || !Files.isRegularFile(report) || Files.size(report) - at > 16) {
        return false;
      }
      try (InputStream in = Files.newInputStream(report)) {
        int b = in.read();
        while (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
          b = in.read();
        }
        return b == '{';
      }
    } catch (IOException e) {
      return false;
    }
  }

  private static ReportException unreadable(Path report, IOException e) {
    return new ReportException(
        e instanceof NoSuchFileException
            ? report + ": no such file (check the path)"
            : report + ": cannot be read: " + e.getMessage(),
        true,
        e);
  }

  /** Where each report is read from: its file, or the bytes of standard input. */
  private record Sources(List<Path> reports, byte[] standardInput) {

    InputStream open(int i) throws IOException {
      Path report = reports.get(i);
      return report.toString().equals("-")
          ? new java.io.ByteArrayInputStream(standardInput)
          : Files.newInputStream(report);
    }
  }
}
