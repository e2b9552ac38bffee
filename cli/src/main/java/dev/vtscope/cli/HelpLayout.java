package dev.vtscope.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Help that reads well at 80 columns: picocli breaks long lines wherever a line-break iterator
 * allows, which includes after the dots of class and package names ({@code jdk.} / {@code
 * VirtualThreadPinned}). Descriptions are wrapped here at spaces only, before picocli lays them
 * out, and synopses are abbreviated to {@code [OPTIONS]}, so no name or example is cut.
 */
final class HelpLayout {

  /** Where picocli starts an option's description, with its default long-option column. */
  private static final int DESCRIPTION_COLUMN = 29;

  private HelpLayout() {}

  static void apply(CommandLine root) {
    apply(root, false);
    for (CommandLine sub : root.getSubcommands().values()) {
      apply(sub, true);
    }
  }

  private static void apply(CommandLine commandLine, boolean abbreviate) {
    if (abbreviate) {
      commandLine.getCommandSpec().usageMessage().abbreviateSynopsis(true);
    }
    Map<String, IHelpSectionRenderer> sections = commandLine.getHelpSectionMap();
    // The header is the command's line in the list of commands (and its man page's NAME); its own
    // help opens with the synopsis and says the same at length in the description.
    sections.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER_HEADING);
    sections.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER);
    wrapBefore(sections, CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST);
    wrapBefore(sections, CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST);
    IHelpSectionRenderer description =
        sections.get(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION);
    if (description != null) {
      sections.put(
          CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION,
          new WrappedDescription(description));
    }
  }

  /*
   * The renderers below are classes rather than lambdas: a lambda that implements a picocli
   * interface is made when the command line is built, before every command, as no class-data
   * archive can hold it (see the launcher).
   */

  /** The description, each paragraph wrapped at spaces, then rendered as picocli renders it. */
  private record WrappedDescription(IHelpSectionRenderer description)
      implements IHelpSectionRenderer {
    @Override
    public String render(CommandLine.Help help) {
      CommandSpec spec = help.commandSpec();
      int width = spec.usageMessage().width();
      List<String> lines = new ArrayList<>();
      for (String line : spec.usageMessage().description()) {
        // an indented line (an example) keeps its indent on each line it wraps to, and its
        // continuation lines two more
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        String more = indent.isEmpty() ? "" : "  ";
        for (String wrapped : wrap(line.stripLeading(), width - 1 - indent.length(), more)) {
          lines.add(indent + wrapped);
        }
      }
      spec.usageMessage().description(lines.toArray(String[]::new));
      return description.render(help);
    }
  }

  /** A list of options or parameters, their descriptions wrapped at spaces first. */
  private record WrappedArguments(IHelpSectionRenderer renderer) implements IHelpSectionRenderer {
    @Override
    public String render(CommandLine.Help help) {
      rewrapArguments(help.commandSpec());
      return renderer.render(help);
    }
  }

  /**
   * A command's one-line summary, as the list of commands shows it: its header, or else the first
   * sentence of its description.
   */
  static String summary(CommandSpec spec) {
    String[] header = spec.usageMessage().header();
    if (header != null && header.length > 0) {
      return header[0].replace("%n", "").strip().replaceAll("\\.$", "");
    }
    String[] description = spec.usageMessage().description();
    if (description == null || description.length == 0) {
      return "";
    }
    String text = description[0].replace("%n", " ").strip();
    java.util.regex.Matcher end = java.util.regex.Pattern.compile("\\.\\s+[A-Z]").matcher(text);
    return end.find() ? text.substring(0, end.start()) : text.replaceAll("\\.$", "");
  }

  private static void wrapBefore(Map<String, IHelpSectionRenderer> sections, String key) {
    IHelpSectionRenderer renderer = sections.get(key);
    if (renderer == null) {
      return;
    }
    sections.put(key, new WrappedArguments(renderer));
  }

  /** Re-makes every option and parameter with its description wrapped at spaces. */
  private static void rewrapArguments(CommandSpec spec) {
    int width = spec.usageMessage().width() - DESCRIPTION_COLUMN - 1;
    for (OptionSpec option : new ArrayList<>(spec.options())) {
      String[] wrapped = wrapAll(option.description(), width);
      if (wrapped != null) {
        spec.remove(option);
        spec.addOption(option.toBuilder().description(wrapped).build());
      }
    }
    for (PositionalParamSpec parameter : new ArrayList<>(spec.positionalParameters())) {
      String[] wrapped = wrapAll(parameter.description(), width);
      if (wrapped != null) {
        spec.remove(parameter);
        spec.addPositional(parameter.toBuilder().description(wrapped).build());
      }
    }
  }

  /** The description as lines that fit, continuations indented; null when it already fits. */
  private static String[] wrapAll(String[] description, int width) {
    if (description == null || width < 20) {
      return null;
    }
    List<String> lines = new ArrayList<>();
    boolean changed = false;
    for (String line : description) {
      List<String> wrapped = wrap(line, width, "  ");
      changed |= wrapped.size() > 1;
      lines.addAll(wrapped);
    }
    return changed ? lines.toArray(String[]::new) : null;
  }

  /** Wraps one line at spaces; continuation lines start with {@code indent}. */
  static List<String> wrap(String text, int width, String indent) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      int limit = lines.isEmpty() ? width : width - indent.length();
      if (line.length() > 0 && line.length() + 1 + word.length() > limit) {
        lines.add((lines.isEmpty() ? "" : indent) + line);
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0 || lines.isEmpty()) {
      lines.add((lines.isEmpty() ? "" : indent) + line);
    }
    return lines;
  }
}
