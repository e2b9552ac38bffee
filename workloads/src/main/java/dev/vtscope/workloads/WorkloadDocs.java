package dev.vtscope.workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Writes the parts of the documentation that come from the workloads themselves ({@link
 * Workload#description()}, {@link Workload#documentation()}), so that each fact is written once:
 * the claimed-vs-measured table of {@code docs/workloads.md}, the index of {@code
 * docs/scenarios/README.md}, and the list {@code docs/scenarios/make-pages.sh} records from.
 *
 * <pre>
 * java -cp cli/target/vtscope.jar dev.vtscope.workloads.WorkloadDocs write .   # the two tables
 * java -cp cli/target/vtscope.jar dev.vtscope.workloads.WorkloadDocs pages     # make-pages' list
 * </pre>
 */
public final class WorkloadDocs {

  /** Opens a generated part of a Markdown file. */
  public static final String BEGIN =
      "<!-- generated from the workload classes by dev.vtscope.workloads.WorkloadDocs:"
          + " change them, then run it with 'write' -->";

  /** Closes it. */
  public static final String END = "<!-- end of the generated part -->";

  private WorkloadDocs() {}

  /** The claimed-vs-measured table of {@code docs/workloads.md}. */
  public static String workloadsTable() {
    StringBuilder out = new StringBuilder();
    out.append("| workload | command | claimed | measured here |\n|---|---|---|---|\n");
    for (Workload w : Workloads.ALL) {
      Documentation d = w.documentation();
      out.append("| `")
          .append(w.name())
          .append("` | ")
          .append(d.command())
          .append(" | ")
          .append(d.claimed())
          .append(" | ")
          .append(d.measured())
          .append(" |\n");
    }
    return out.toString();
  }

  /** The index of {@code docs/scenarios/README.md}. */
  public static String scenariosTable() {
    StringBuilder out = new StringBuilder();
    out.append("| scenario | shows | JDKs recorded |\n|---|---|---|\n");
    for (Workload w : Workloads.ALL) {
      out.append("| [")
          .append(w.name())
          .append("](")
          .append(w.name())
          .append(".md) | ")
          .append(w.description())
          .append(" | ")
          .append(
              w.documentation().recordedOn().stream()
                  .map(String::valueOf)
                  .collect(Collectors.joining(", ")))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * What {@code make-pages.sh} records, a line a workload: {@code name|jdks|arguments|fixed
   * variant}, the JDKs separated by spaces, "-" when there is no fixed variant.
   */
  public static String pages() {
    StringBuilder out = new StringBuilder();
    for (Workload w : Workloads.ALL) {
      Documentation d = w.documentation();
      out.append(w.name())
          .append('|')
          .append(d.recordedOn().stream().map(String::valueOf).collect(Collectors.joining(" ")))
          .append('|')
          .append(d.arguments())
          .append('|')
          .append(d.fixedVariant() == null ? "-" : d.fixedVariant())
          .append('\n');
    }
    return out.toString();
  }

  /** {@code text} with its generated part replaced by {@code generated}. */
  public static String replaceGenerated(String text, String generated) {
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("no generated part (" + BEGIN + " ... " + END + ")");
    }
    return text.substring(0, begin + BEGIN.length()) + "\n" + generated + text.substring(end);
  }

  /** The generated part of {@code text}. */
  public static String generated(String text) {
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    if (begin < 0 || end < begin) {
      return null;
    }
    return text.substring(begin + BEGIN.length() + 1, end);
  }

  public static void main(String[] args) throws IOException {
    if (args.length == 1 && args[0].equals("pages")) {
      System.out.print(pages());
      return;
    }
    if (args.length == 2 && args[0].equals("write")) {
      Path root = Path.of(args[1]);
      write(root.resolve("docs/workloads.md"), workloadsTable());
      write(root.resolve("docs/scenarios/README.md"), scenariosTable());
      return;
    }
    System.err.println("usage: WorkloadDocs write REPOSITORY | pages");
    System.exit(2);
  }

  private static void write(Path file, String generated) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Files.writeString(file, replaceGenerated(text, generated), StandardCharsets.UTF_8);
    System.out.println("wrote the generated part of " + file);
  }
}
