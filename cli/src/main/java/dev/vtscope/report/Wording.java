package dev.vtscope.report;

import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Note;
import dev.vtscope.recording.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * Everything vtscope says, in one place: the statements of {@code wording.properties}, filled with
 * a {@link Message}'s figures. Every format (text, JSON, Markdown, HTML, the explorer, check's
 * JUnit XML) words a note or a finding through this class, so all of them say the same thing.
 *
 * <p>A statement names its figures in braces: {@code {threshold}}. Durations are written for people
 * ({@code 20.0 ms}), frames as {@code Class.method(File.java:12)}, nested messages as their own
 * statement, and lists joined with {@code ", "}, or with the separator after a bar: {@code {each|;
 * }}.
 */
public final class Wording {

  private static final Wording STANDARD =
      new Wording(load(), UnaryOperator.identity(), UnaryOperator.identity());

  private static final Wording TERMINAL = STANDARD.showing(Escaping::terminal, Escaping::visible);

  private static final Wording MARKDOWN =
      STANDARD.showing(Escaping::shortened, UnaryOperator.identity());

  private final Properties statements;

  /** How a figure's text (a name from the recording, a frame) is shown in this wording's medium. */
  private final UnaryOperator<String> names;

  /** How a statement read back from a report (a verbatim message, names in it) is shown. */
  private final UnaryOperator<String> verbatim;

  private Wording(
      Properties statements, UnaryOperator<String> names, UnaryOperator<String> verbatim) {
    this.statements = statements;
    this.names = names;
    this.verbatim = verbatim;
  }

  /** vtscope's wording, read once, with names exact: for JSON, HTML and media that escape later. */
  public static Wording standard() {
    return STANDARD;
  }

  /**
   * The same wording for a terminal, a text file or a pipe: names from the recording in it are
   * escaped and shortened as {@link Escaping#terminal} does.
   */
  public static Wording terminal() {
    return TERMINAL;
  }

  /**
   * The same wording for Markdown: long names shortened as in text; the renderer escapes each
   * statement whole with {@link Escaping#markdownText}.
   */
  static Wording markdown() {
    return MARKDOWN;
  }

  /**
   * The same statements, with every figure's text shown through {@code names} and every statement
   * read back from a report through {@code verbatim}.
   */
  Wording showing(UnaryOperator<String> names, UnaryOperator<String> verbatim) {
    return new Wording(statements, names, verbatim);
  }

  /** The statement {@code message} names, filled with its figures. */
  public String format(Message message) {
    if (Message.VERBATIM.equals(message.key())) {
      return verbatim.apply((String) message.args().get("text"));
    }
    String template = statements.getProperty(message.key());
    if (template == null) {
      throw new IllegalArgumentException("no wording for " + message.key());
    }
    StringBuilder out = new StringBuilder(template.length() + 64);
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '{') {
        out.append(c);
        i++;
        continue;
      }
      int end = template.indexOf('}', i);
      if (end < 0) {
        throw new IllegalArgumentException(message.key() + ": unclosed brace");
      }
      String slot = template.substring(i + 1, end);
      int bar = slot.indexOf('|');
      int hash = slot.indexOf('#');
      boolean percent = slot.endsWith("%");
      int end0 = bar >= 0 ? bar : hash >= 0 ? hash : percent ? slot.length() - 1 : slot.length();
      String name = slot.substring(0, end0);
      if (!message.args().containsKey(name)) {
        throw new IllegalArgumentException(message.key() + ": no figure " + name);
      }
      Object value = message.args().get(name);
      if (percent) {
        double ratio = ((Number) value).doubleValue();
        out.append(String.format(java.util.Locale.ROOT, "%.1f%%", ratio * 100));
      } else if (hash >= 0) {
        long n = ((Number) value).longValue();
        out.append(n).append(' ').append(slot, hash + 1, slot.length()).append(n == 1 ? "" : "s");
      } else {
        append(out, value, bar < 0 ? ", " : slot.substring(bar + 1));
      }
      i = end + 1;
    }
    return out.toString();
  }

  /** Whether the wording has a statement for {@code key}. */
  public boolean has(String key) {
    return statements.containsKey(key);
  }

  /** What kind of hold a culprit is, e.g. {@code synchronized block}: one name in every output. */
  public String kind(dev.vtscope.attribution.CulpritKind kind) {
    return format(Message.of("kind." + kind.name(), "lines", ""));
  }

  public String message(Note note) {
    return format(note.message());
  }

  public String title(Finding finding) {
    return format(finding.title());
  }

  public String explanation(Finding finding) {
    return format(finding.explanation());
  }

  public List<String> actions(Finding finding) {
    return finding.actions().stream().map(this::format).toList();
  }

  private void append(StringBuilder out, Object value, String separator) {
    // instanceof rather than a pattern switch, which makes a class at start-up (SwitchBootstraps)
    // that no class-data archive keeps; so in figure(Object) too
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(separator);
        }
        append(out, list.get(i), separator);
      }
    } else if (value instanceof Duration d) {
      out.append(HumanDurations.format(d.toNanos()));
    } else if (value instanceof Message.Share share) {
      out.append(percent(share));
    } else if (value instanceof Frame f) {
      out.append(names.apply(f.display()));
    } else if (value instanceof Message m) {
      out.append(format(m));
    } else if (value instanceof String text) {
      out.append(names.apply(text));
    } else {
      out.append(value);
    }
  }

  /**
   * The figures of {@code message} for a program: numbers as numbers, durations in nanoseconds,
   * frames as text; nested messages and empty strings (parts of a sentence, said or left out) are
   * words, not figures, and are left out.
   */
  public static Map<String, Object> figures(Message message) {
    Map<String, Object> figures = new java.util.LinkedHashMap<>();
    boolean verbatim = Message.VERBATIM.equals(message.key());
    message
        .args()
        .forEach(
            (name, value) -> {
              if (verbatim && name.equals("text")) {
                return; // the words, not a figure
              }
              Object figure = figure(value);
              if (figure != null) {
                figures.put(name, figure);
              }
            });
    return figures;
  }

  private static Object figure(Object value) {
    if (value instanceof List<?> list) {
      List<Object> figures = new ArrayList<>();
      for (Object v : list) {
        Object f = figure(v);
        if (f != null) {
          figures.add(f);
        }
      }
      return figures.isEmpty() && !list.isEmpty() ? null : figures;
    } else if (value instanceof Duration d) {
      return d.toNanos();
    } else if (value instanceof Message.Share share) {
      return share.whole() <= 0 ? null : share.part() / (double) share.whole();
    } else if (value instanceof Frame f) {
      return f.display();
    } else if (value instanceof Message) {
      return null;
    } else if (value instanceof String text && text.isEmpty()) {
      // an empty string is a part of the sentence left out, not a figure
      return null;
    }
    return value;
  }

  /** A share as a person reads it: {@code 42%}, {@code <1%}, {@code 100%}, or {@code n/a}. */
  public static String percent(Message.Share share) {
    return share.percent();
  }

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = Wording.class.getResourceAsStream("wording.properties")) {
      if (in == null) {
        throw new IllegalStateException("wording.properties is missing from vtscope's jar");
      }
      p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }
}
