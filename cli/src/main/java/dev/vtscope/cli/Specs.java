package dev.vtscope.cli;

import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Picocli's model of vtscope's commands, declared in code rather than with picocli's annotations.
 *
 * <p>Annotations cost a short run more than anything else it did before reading: the first one read
 * makes the JDK generate a proxy class per annotation type, with a class-file writer that is still
 * cold, and none of it can be kept in a class-data archive. Built in code, the model of {@code
 * vtscope analyze} takes a few milliseconds; bench/README.md has the measurements. A command
 * declares its options where an annotated one declared its fields, and each option reads and writes
 * a field of the command, as picocli does for an annotated field.
 */
final class Specs {

  private Specs() {}

  /**
   * The model of a command; picocli runs {@code command}'s {@code call()}.
   *
   * @param header the line that the list of commands shows, or null for none
   */
  static CommandSpec command(Object command, String name, String header, String... description) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(name);
    if (header != null) {
      spec.usageMessage().header(header);
    }
    spec.usageMessage().description(description);
    return spec;
  }

  /**
   * Adds {@code -h/--help} and {@code -V/--version}, the options picocli's {@code
   * mixinStandardHelpOptions} adds, after the command's own, where picocli puts them.
   */
  static void helpOptions(CommandSpec spec) {
    spec.addOption(
        OptionSpec.builder("-h", "--help")
            .usageHelp(true)
            .description("Show this help message and exit.")
            .build());
    spec.addOption(
        OptionSpec.builder("-V", "--version")
            .versionHelp(true)
            .description("Print version information and exit.")
            .build());
  }

  /**
   * An option that reads and writes a field of its command through {@code get} and {@code set}. The
   * field's value now is the option's initial value, which picocli shows as its default and
   * restores before each parse; a field that is null has none.
   */
  static <T> OptionSpec.Builder option(Supplier<T> get, Consumer<T> set, String... names) {
    Field<T> field = new Field<>(get, set);
    T initial = get.get();
    return OptionSpec.builder(names)
        .getter(field)
        .setter(field)
        .initialValue(initial)
        .hasInitialValue(initial != null);
  }

  /** {@code --verbose}, which {@link ErrorReporter} reads from what was parsed. */
  static void verboseOption(CommandSpec spec) {
    spec.addOption(
        OptionSpec.builder("--verbose")
            .type(boolean.class)
            .description("Print stack traces of errors.")
            .build());
  }

  /** An option that is a switch: present or not. */
  static OptionSpec flag(
      Supplier<Boolean> get, Consumer<Boolean> set, String description, String... names) {
    return option(get, set, names).type(boolean.class).description(description).build();
  }

  /** Positional parameters that read and write a field of their command, as options do. */
  static <T> PositionalParamSpec.Builder parameters(Supplier<T> get, Consumer<T> set) {
    Field<T> field = new Field<>(get, set);
    T initial = get.get();
    return PositionalParamSpec.builder()
        .getter(field)
        .setter(field)
        .initialValue(initial)
        .hasInitialValue(initial != null);
  }

  /**
   * Reads a path as picocli's own converter does, without the reflective call to {@code Paths.get}
   * that picocli makes: the JDK spins method handles for a method's first reflective call, some
   * milliseconds of a short run.
   */
  static final class PathConverter implements CommandLine.ITypeConverter<java.nio.file.Path> {
    @Override
    public java.nio.file.Path convert(String value) {
      // Path.of("") is the current folder: an empty name (an unset shell variable) is a mistake
      if (value.isEmpty()) {
        throw new CommandLine.TypeConversionException("takes a file name, not an empty one");
      }
      return java.nio.file.Path.of(value);
    }
  }

  /** A field of a command, as picocli reads and writes an annotated one. */
  private static final class Field<T> implements IGetter, ISetter {

    private final Supplier<T> reader;
    private final Consumer<T> writer;

    Field(Supplier<T> reader, Consumer<T> writer) {
      this.reader = reader;
      this.writer = writer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V get() {
      return (V) reader.get();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V set(V value) {
      V old = (V) reader.get();
      writer.accept((T) value);
      return old;
    }
  }
}
