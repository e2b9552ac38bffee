package dev.vtscope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes a man page (troff, section 1) for vtscope and each of its commands, from the command
 * line's own model, so that the pages say exactly what {@code --help} says. The build runs it
 * ({@code cli/target/man/man1}); {@code MANPATH} or {@code man -l} reads them.
 */
public final class ManPages {

  private ManPages() {}

  /** Writes the pages into {@code args[0]/man1}. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/man").resolve("man1");
    Files.createDirectories(dir);
    CommandLine all =
        VtScope.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null);
    Files.writeString(dir.resolve("vtscope.1"), page(all, null));
    for (var entry : all.getSubcommands().entrySet()) {
      CommandLine sub = entry.getValue();
      if (!entry.getKey().equals(sub.getCommandName())
          || sub.getCommandSpec().usageMessage().hidden()
          || entry.getKey().equals("help")) {
        continue; // aliases, hidden commands and help have no page of their own
      }
      Files.writeString(dir.resolve("vtscope-" + entry.getKey() + ".1"), page(sub, all));
      // man vtscope-analyse finds the page of analyze, as man gunzip finds gzip's
      for (String alias : sub.getCommandSpec().aliases()) {
        Files.writeString(
            dir.resolve("vtscope-" + alias + ".1"), ".so man1/vtscope-" + entry.getKey() + ".1\n");
      }
    }
  }

  /**
   * One page: NAME (the page's name, its aliases' and the command's one-line summary), SYNOPSIS
   * (one line for each name the command answers to), DESCRIPTION, OPTIONS, EXIT STATUS, SEE ALSO.
   */
  static String page(CommandLine command, CommandLine root) {
    CommandSpec spec = command.getCommandSpec();
    String name = root == null ? "vtscope" : "vtscope-" + command.getCommandName();
    List<String> aliases = root == null ? List.of() : List.of(spec.aliases());
    StringBuilder t = new StringBuilder();
    t.append(".TH ")
        .append(name.toUpperCase(Locale.ROOT))
        .append(" 1 \"\" \"vtscope ")
        .append(escape(VtScope.version()))
        .append("\" \"vtscope manual\"\n")
        .append(
            ".nh\n.ad l\n"); // names like jdk.VirtualThreadPinned are neither hyphenated nor spread
    String[] description = spec.usageMessage().description();
    t.append(".SH NAME\n").append(escape(name));
    for (String alias : aliases) {
      t.append(", ").append(escape("vtscope-" + alias));
    }
    t.append(" \\- ").append(escape(HelpLayout.summary(spec))).append('\n');
    t.append(".SH SYNOPSIS\n");
    if (root == null) {
      t.append(".B vtscope\nCOMMAND [OPTIONS] [ARGUMENTS]\n");
    } else {
      List<String> names = new ArrayList<>(List.of(command.getCommandName()));
      names.addAll(aliases);
      for (int i = 0; i < names.size(); i++) {
        t.append(i > 0 ? ".br\n" : "")
            .append(".B vtscope ")
            .append(escape(names.get(i)))
            .append('\n')
            .append(synopsis(spec))
            .append('\n');
      }
    }
    t.append(".SH DESCRIPTION\n");
    for (String paragraph : description) {
      t.append(".PP\n").append(escape(paragraph.replace("%n", " "))).append('\n');
    }
    for (String alias : aliases) {
      t.append(".PP\n\\fBvtscope ")
          .append(escape(alias))
          .append("\\fR is another name for \\fBvtscope ")
          .append(escape(command.getCommandName()))
          .append("\\fR.\n");
    }
    if (root == null) {
      t.append(".SH COMMANDS\n");
      command
          .getSubcommands()
          .forEach(
              (n, sub) -> {
                if (n.equals(sub.getCommandName())
                    && !sub.getCommandSpec().usageMessage().hidden()) {
                  List<String> names = new ArrayList<>(List.of(n));
                  names.addAll(List.of(sub.getCommandSpec().aliases()));
                  t.append(".TP\n.B ")
                      .append(escape(String.join(", ", names)))
                      .append('\n')
                      .append(escape(HelpLayout.summary(sub.getCommandSpec())))
                      .append('\n');
                }
              });
    }
    List<PositionalParamSpec> parameters = spec.positionalParameters();
    if (!parameters.isEmpty()) {
      t.append(".SH ARGUMENTS\n");
      for (PositionalParamSpec p : parameters) {
        t.append(".TP\n.I ")
            .append(escape(p.paramLabel()))
            .append('\n')
            .append(escape(String.join(" ", p.description())))
            .append('\n');
      }
    }
    List<OptionSpec> options = new ArrayList<>(spec.options());
    options.removeIf(OptionSpec::hidden);
    if (!options.isEmpty()) {
      options.sort(java.util.Comparator.comparing(OptionSpec::longestName));
      t.append(".SH OPTIONS\n");
      for (OptionSpec o : options) {
        t.append(".TP\n.B ").append(escape(String.join(", ", o.names())));
        if (o.arity().max() > 0) {
          t.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
        }
        t.append('\n').append(escape(String.join(" ", o.description()))).append('\n');
      }
    }
    t.append(".SH EXIT STATUS\n");
    for (ExitCode code : ExitCode.values()) {
      t.append(".TP\n.B ")
          .append(code.code())
          .append('\n')
          .append(escape(code.meaning()))
          .append('\n');
    }
    t.append(".SH SEE ALSO\n");
    if (root == null) {
      List<String> pages = new ArrayList<>();
      command
          .getSubcommands()
          .forEach(
              (n, sub) -> {
                if (n.equals(sub.getCommandName())
                    && !sub.getCommandSpec().usageMessage().hidden()
                    && !n.equals("help")) {
                  pages.add("\\fB" + escape("vtscope-" + n) + "\\fR(1)");
                }
              });
      t.append(String.join(", ", pages)).append('\n');
    } else {
      t.append("\\fBvtscope\\fR(1)\n");
    }
    return t.toString();
  }

  private static String synopsis(CommandSpec spec) {
    StringBuilder s = new StringBuilder("[\\fIOPTIONS\\fR]");
    for (PositionalParamSpec p : spec.positionalParameters()) {
      s.append(' ').append(escape(p.paramLabel()));
      if (p.arity().max() > 1) {
        s.append("...");
      }
    }
    return s.toString();
  }

  /** troff text: backslashes doubled, hyphens as minus signs, no line starting with a dot. */
  static String escape(String text) {
    String s = text.replace("\\", "\\e").replace("-", "\\-");
    StringBuilder out = new StringBuilder();
    for (String line : s.split("\n", -1)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append(line.startsWith(".") || line.startsWith("'") ? "\\&" + line : line);
    }
    return out.toString();
  }
}
