package dev.vtscope.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The values an option takes, as users type them and the help names them ({@code json}, {@code
 * top-frame}), for an option's {@code completionCandidates}: completion scripts offer them and a
 * mistyped value's error lists them. Left to itself, picocli would offer an enum's constants as
 * they are named ({@code JSON}, {@code TOP_FRAME}).
 */
abstract class OptionValues implements Iterable<String> {

  private final List<String> values;

  OptionValues(List<String> values) {
    this.values = List.copyOf(values);
  }

  /** An enum's constants in lower case, which picocli reads back case-insensitively. */
  OptionValues(Class<? extends Enum<?>> type) {
    this(
        Arrays.stream(type.getEnumConstants())
            .map(constant -> constant.name().toLowerCase(Locale.ROOT))
            .toList());
  }

  @Override
  public Iterator<String> iterator() {
    return values.iterator();
  }
}
