package dev.vtscope.cli;

import dev.vtscope.analysis.GroupBy;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine;

/** Reads {@code --group-by} values by their labels: stack, top-frame, reason. */
final class GroupByConverter implements CommandLine.ITypeConverter<GroupBy> {

  @Override
  public GroupBy convert(String value) {
    String wanted = value.trim().toLowerCase(Locale.ROOT);
    for (GroupBy g : GroupBy.values()) {
      if (g.label().equals(wanted) || g.name().equalsIgnoreCase(wanted)) {
        return g;
      }
    }
    throw new CommandLine.TypeConversionException(
        "'"
            + value
            + "' is not a grouping; use one of "
            + Arrays.stream(GroupBy.values())
                .map(GroupBy::label)
                .collect(Collectors.joining(", ")));
  }
}
