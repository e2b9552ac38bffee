package dev.vtscope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.advice.Advice;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.recording.Frame;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.DumpWaits;
import dev.vtscope.waits.WaitGroup;
import dev.vtscope.waits.WaitKey;
import dev.vtscope.waits.WaitKind;
import dev.vtscope.waits.WaitSeries;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * {@code vtscope analyze} of thread dumps, as text (a screenful: a line per wait, most telling
 * first) or as JSON ({@code docs/json.md}, {@code docs/vtscope-waits.schema.json}).
 */
public final class DumpReport {

  /** Bumped when a field of the dump report is removed or changes meaning. */
  static final int WAITS_SCHEMA_VERSION = 1;

  /** How many groups the text shows: a screenful; the JSON lists all. */
  static final int GROUPS_SHOWN = 12;

  /** How many frames of the first group's example stack the text shows. */
  private static final int EXAMPLE_FRAMES = 6;

  private DumpReport() {}

  // ---------------------------------------------------------------- text

  /** The header, groups and notes, as lines; the findings go between them ({@link TextReport}). */
  static List<String> textHead(DumpAnalysis a, TextStyle style) {
    List<String> lines = new ArrayList<>();
    lines.add(
        style.bold(
            "vtscope: what the threads wait for"
                + (a.isSeries() ? ", over " + a.series().dumps().size() + " dumps" : "")));
    for (int i = 0; i < a.names().size(); i++) {
      ThreadDump d = a.series().dumps().get(i).dump();
      lines.add(
          "  dump        "
              + Escaping.terminal(a.names().get(i))
              + "  ("
              + facts(d, Escaping::terminal)
              + ")");
    }
    if (a.isSeries()) {
      lines.add(
          "  span        "
              + (a.series().span() == null
                  ? "unknown (a Thread.print names no time zone)"
                  : HumanDurations.format(a.series().span().toNanos())));
    }
    DumpWaits last = a.last();
    lines.add(
        "  threads     "
            + number(last.threads())
            + (a.isSeries() ? " in the last dump" : "")
            + ": "
            + kinds(last)
            + "; "
            + carriersHeld(last));
    lines.add("");
    return lines;
  }

  /**
   * How many of {@code w}'s virtual threads hold their carrier while blocked, and how many the dump
   * cannot tell of: mounted, their frames not printed, which run or are held there.
   */
  static String carriersHeld(DumpWaits w) {
    String held =
        number(w.carriersHeld())
            + " virtual "
            + (w.carriersHeld() == 1 ? "thread holds its" : "threads hold their")
            + " carrier while blocked";
    int unseen = w.mountedUnseen();
    return unseen == 0
        ? held
        : held
            + " as far as the dump shows; "
            + number(unseen)
            + (unseen == 1 ? " is" : " are")
            + " mounted with frames it does not print, each running or holding its carrier";
  }

  /**
   * How many of a dump's threads are virtual and platform threads, and how many it does not tell
   * (JDK 21's JSON alone lists a virtual thread not started yet as it lists the JVM's own threads).
   */
  static String kinds(DumpWaits w) {
    return number(w.virtualThreads())
        + " virtual, "
        + number(w.platformThreads())
        + " platform"
        + (w.unknownThreads() == 0
            ? ""
            : ", "
                + number(w.unknownThreads())
                + " of either kind (no frames: the JVM's own, or virtual threads not started;"
                + " a Thread.print -l given too tells them apart)");
  }

  /** The groups (or, for a series, their trends) and the notes. */
  static List<String> textBody(DumpAnalysis a, TextStyle style) {
    List<String> lines = new ArrayList<>();
    DumpWaits last = a.last();
    if (a.isSeries()) {
      series(a, style, lines);
    } else {
      lines.add(style.bold("Waits (most telling first: carriers held, then the largest)"));
      if (last.groups().isEmpty()) {
        lines.add("  none: the dump lists no threads");
      }
      int shown = 0;
      for (WaitGroup g : last.groups()) {
        if (shown == GROUPS_SHOWN) {
          lines.add(
              "  … "
                  + (last.groups().size() - shown)
                  + (last.groups().size() - shown == 1 ? " more group of " : " more groups of ")
                  + number(rest(last.groups(), shown))
                  + (rest(last.groups(), shown) == 1 ? " thread" : " threads")
                  + " (--format json lists every group)");
          break;
        }
        lines.add("  " + line(g));
        detail(g, shown == 0, lines);
        shown++;
      }
      lines.add("");
    }
    List<String> notes = a.notes();
    if (!notes.isEmpty()) {
      lines.add(style.bold("Notes"));
      notes.forEach(n -> lines.add("  - " + Escaping.terminalLine(n)));
    }
    return lines;
  }

  private static void series(DumpAnalysis a, TextStyle style, List<String> lines) {
    WaitSeries s = a.series();
    String span =
        s.span() == null
            ? "between the dumps"
            : "for at least " + HumanDurations.format(s.span().toNanos());
    lines.add(
        style.bold(
            "Waits over the dumps (threads in each dump; stuck: the same threads there in every dump)"));
    int shown = 0;
    for (WaitSeries.Trend t : s.groups()) {
      if (shown == GROUPS_SHOWN) {
        lines.add("  … " + (s.groups().size() - shown) + " more (--format json lists every one)");
        break;
      }
      WaitGroup g = a.latestGroup(t.key());
      StringBuilder line = new StringBuilder("  ");
      line.append(String.join(" → ", t.threads().stream().map(DumpReport::number).toList()));
      // the verb agrees with the count of the latest dump that has the group
      line.append("  ").append(describe(g, true, Escaping::terminal));
      lines.add(line.toString());
      int now = t.threads().get(t.threads().size() - 1);
      if (t.stuck()) {
        lines.add(
            "      stuck "
                + span
                + ": "
                + number(t.persistent())
                + (t.persistent() == 1 ? " thread" : " threads")
                + ", the same stack in every dump");
      } else if (t.persistent() > 0) {
        // an idle pool's workers or the JVM's own threads: waiting so is what they are for
        lines.add(
            "      idle, the same "
                + (t.persistent() == 1 ? "thread" : number(t.persistent()) + " threads")
                + " in every dump");
      } else if (now > 0) {
        lines.add(
            "      moving: "
                + number(t.arrived())
                + " of "
                + number(now)
                + " new since the dump before");
      } else {
        lines.add("      gone by the last dump");
      }
      if (g != null && now > 0) {
        detail(g, false, lines); // a few of the last dump's threads, by name
      }
      shown++;
    }
    lines.add("");
  }

  private static int rest(List<WaitGroup> groups, int from) {
    int n = 0;
    for (WaitGroup g : groups.subList(from, groups.size())) {
      n += g.threads();
    }
    return n;
  }

  /** One group in a line, for a terminal: how many threads, what they wait for, where. */
  public static String line(WaitGroup g) {
    return number(g.threads()) + " " + describe(g, true, Escaping::terminal);
  }

  /** What a group's threads wait for, where, uncounted, for a terminal: a series' trend's words. */
  public static String what(WaitGroup g) {
    return describe(g, false, Escaping::terminal);
  }

  /**
   * What a group's threads do, where.
   *
   * @param counted whether a count goes before it, which makes one thread singular
   * @param name how a name from the dump (a class, a method, an object) is made safe to show
   */
  static String describe(WaitGroup g, boolean counted, UnaryOperator<String> name) {
    StringBuilder s = new StringBuilder();
    int unknown = g.unknownThreads();
    if (unknown > 0 && unknown < g.threads()) {
      s.append("threads (")
          .append(g.virtualThreads() > 0 ? number(g.virtualThreads()) + " virtual, " : "")
          .append(g.platformThreads() > 0 ? number(g.platformThreads()) + " platform, " : "")
          .append(number(unknown))
          .append(" of either kind) ");
    } else if (g.virtualThreads() > 0 && g.platformThreads() > 0) {
      s.append("threads (").append(number(g.virtualThreads())).append(" virtual) ");
    } else {
      // of either kind, the dump does not say which: no word for it
      s.append(g.virtualThreads() > 0 ? "virtual " : unknown > 0 ? "" : "platform ")
          .append(counted && g.threads() == 1 ? "thread " : "threads ");
    }
    s.append(verb(g, counted && g.threads() == 1));
    if (g.entry() != null) {
      s.append(" in ").append(simple(g.entry(), name));
    }
    if (g.via() != null) {
      s.append(" via ").append(simple(g.via(), name));
    }
    if (g.site() != null) {
      s.append(" at ").append(site(g.site(), name));
    }
    String resource =
        g.objects() > 1
            ? number(g.objects()) + " objects, one per thread"
            : resource(g.key(), name);
    if (resource != null) {
      s.append(" (").append(resource).append(')');
    }
    if (g.carriersHeld() > 0) {
      s.append(", ").append(number(g.carriersHeld())).append(" holding a carrier");
    }
    return s.toString();
  }

  private static String verb(WaitGroup g, boolean one) {
    WaitKind kind = g.key().kind();
    return switch (kind) {
      case MONITOR_ENTER -> one ? "blocks entering a monitor" : "block entering a monitor";
      case MONITOR_WAIT -> one ? "waits on a monitor" : "wait on a monitor";
      case LOCK, CONDITION, SYNCHRONIZER, FUTURE, QUEUE, JOIN, PARKED -> one ? "parks" : "park";
      case SLEEP -> one ? "sleeps" : "sleep";
      case SOCKET_IO ->
          (one ? "waits to " : "wait to ")
              + g.operation()
              + (g.operation().equals("read") || g.operation().equals("write") ? " a socket" : "");
      case CLASS_INIT ->
          one ? "waits for a class's initialisation" : "wait for a class's initialisation";
      case NOT_STARTED -> one ? "has not started" : "have not started";
      case IDLE_WORKER -> one ? "is idle" : "are idle";
      case NATIVE ->
          g.jvmOwn()
              ? one ? "is the JVM's own or shows no frames" : "are the JVM's own or show no frames"
              : one ? "runs native code" : "run native code";
      case CARRYING -> one ? "carries a virtual thread" : "carry virtual threads";
      case RUNNING ->
          g.mountedUnseen()
              ? one ? "is mounted, its frames not printed" : "are mounted, their frames not printed"
              : one ? "runs" : "run";
    };
  }

  /** What is waited for, when the entry frame does not already name it. */
  private static String resource(WaitKey k, UnaryOperator<String> name) {
    boolean named =
        switch (k.kind()) {
          case MONITOR_ENTER, MONITOR_WAIT, LOCK, CONDITION, SYNCHRONIZER, FUTURE, QUEUE, PARKED ->
              true;
          default -> false; // the object is the API's own: a join's latch, a pool
        };
    if (named && k.resourceId() != null) {
      return name.apply(simpleClass(k.resourceId()));
    }
    if (k.resourceClass() == null) {
      return null;
    }
    return switch (k.kind()) {
      case MONITOR_ENTER, MONITOR_WAIT, PARKED -> name.apply(simpleClass(k.resourceClass()));
      case CLASS_INIT -> "class " + name.apply(k.resourceClass());
      default -> null;
    };
  }

  private static void detail(WaitGroup g, boolean first, List<String> lines) {
    List<String> names = new ArrayList<>();
    for (WaitGroup.SampledThread t : g.sampled()) {
      names.add("#" + t.tid() + " \"" + Escaping.terminal(t.name()) + "\"");
    }
    lines.add(
        "      " + String.join(", ", names) + (g.threads() > g.sampled().size() ? ", …" : ""));
    if (first && g.example() != null && !g.example().frames().isEmpty()) {
      List<Frame> frames = g.example().frames();
      // from the JDK method called to the application's frame that called it: the frames above
      // are the JDK's way of parking, the same for every wait of the kind
      int entry = g.entry() == null ? -1 : frames.indexOf(g.entry());
      int from = Math.max(0, entry);
      int site = g.site() == null ? -1 : frames.indexOf(g.site());
      int to = Math.min(frames.size(), Math.max(from + EXAMPLE_FRAMES, site + 2));
      if (from > 0) {
        lines.add("     … " + from + (from == 1 ? " frame above" : " frames above"));
      }
      for (int i = from; i < to; i++) {
        lines.add("     at " + Escaping.terminal(frames.get(i).display()));
      }
      if (frames.size() > to) {
        lines.add("     … " + (frames.size() - to) + " more frames");
      }
    }
  }

  static String facts(ThreadDump d, UnaryOperator<String> name) {
    List<String> facts = new ArrayList<>();
    facts.add(
        switch (d.format()) {
          case JSON -> "JSON";
          case PLAIN_TEXT -> "plain text";
          case THREAD_PRINT -> "Thread.print";
        });
    if (d.runtimeVersion() != null) {
      facts.add("JDK " + name.apply(d.runtimeVersion().strip()));
    }
    if (d.pid() >= 0) {
      facts.add("pid " + d.pid());
    }
    if (d.takenAt() != null) {
      facts.add(d.takenAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    }
    if (!d.complete()) {
      facts.add("cut short: read in part");
    }
    return String.join(", ", facts);
  }

  // ---------------------------------------------------------------- Markdown

  /** The report as Markdown: the dumps, the findings, a table of the waits, the notes. */
  static void markdown(DumpAnalysis a, Advice advice, PrintWriter out) {
    // names are cut as the text cuts them, then the whole cell escaped for Markdown
    UnaryOperator<String> name = Escaping::shortened;
    StringBuilder md = new StringBuilder("## vtscope: what the threads wait for");
    md.append(a.isSeries() ? ", over " + a.series().dumps().size() + " dumps" : "").append("\n\n");
    for (int i = 0; i < a.names().size(); i++) {
      ThreadDump d = a.series().dumps().get(i).dump();
      md.append("- ")
          .append(Escaping.markdownCode(a.names().get(i)))
          .append(" (")
          .append(Escaping.markdownText(facts(d, name)))
          .append(")\n");
    }
    DumpWaits last = a.last();
    md.append("- ")
        .append(number(last.threads()))
        .append(" threads")
        .append(a.isSeries() ? " in the last dump" : "")
        .append(": ")
        .append(kinds(last))
        .append("; ")
        .append(Escaping.markdownText(carriersHeld(last)))
        .append("\n\n");
    for (dev.vtscope.advice.Finding f : advice.findings()) {
      md.append(MarkdownReport.finding(f, a.names()));
    }
    md.append("### Waits\n\n");
    if (a.isSeries()) {
      md.append("| threads in each dump | stuck | what they wait for, where |\n|---|---:|---|\n");
      int shown = 0;
      for (WaitSeries.Trend t : a.series().groups()) {
        if (shown++ == GROUPS_SHOWN) {
          md.append("| … | | ")
              .append(a.series().groups().size() - GROUPS_SHOWN)
              .append(" more |\n");
          break;
        }
        md.append("| ")
            .append(String.join(" → ", t.threads().stream().map(DumpReport::number).toList()))
            .append(" | ")
            .append(number(t.persistent()))
            .append(" | ")
            .append(Escaping.markdownText(describe(a.latestGroup(t.key()), false, name)))
            .append(" |\n");
      }
    } else {
      md.append("| threads | what they wait for, where | for example |\n|---:|---|---|\n");
      int shown = 0;
      for (WaitGroup g : last.groups()) {
        if (shown++ == GROUPS_SHOWN) {
          md.append("| ")
              .append(number(rest(last.groups(), GROUPS_SHOWN)))
              .append(" | ")
              .append(last.groups().size() - GROUPS_SHOWN)
              .append(" more groups | |\n");
          break;
        }
        List<String> names = new ArrayList<>();
        for (WaitGroup.SampledThread t : g.sampled()) {
          names.add("#" + t.tid() + " " + Escaping.markdownCodeCell(t.name()));
        }
        md.append("| ")
            .append(number(g.threads()))
            .append(" | ")
            .append(Escaping.markdownText(describe(g, false, name)))
            .append(" | ")
            .append(String.join(", ", names))
            .append(" |\n");
      }
    }
    List<String> notes = a.notes();
    if (!notes.isEmpty()) {
      md.append("\n### Notes\n\n");
      notes.forEach(n -> md.append("- ").append(Escaping.markdownText(n)).append('\n'));
    }
    out.print(md);
    out.flush();
  }

  // ---------------------------------------------------------------- JSON

  static void json(DumpAnalysis a, Advice advice, String toolVersion, PrintWriter out) {
    out.println(JsonText.pretty(document(a, advice, toolVersion)));
    out.flush();
  }

  static ObjectNode document(DumpAnalysis a, Advice advice, String toolVersion) {
    ObjectNode root = JsonText.object();
    root.put("schemaVersion", WAITS_SCHEMA_VERSION);
    root.putObject("tool").put("name", "vtscope").put("version", toolVersion);
    ArrayNode dumps = root.putArray("dumps");
    for (int i = 0; i < a.names().size(); i++) {
      DumpWaits w = a.series().dumps().get(i);
      ThreadDump d = w.dump();
      ObjectNode node = dumps.addObject();
      node.put("path", a.names().get(i));
      node.put("format", d.format().name().toLowerCase(Locale.ROOT).replace('_', '-'));
      node.put("pid", d.pid() < 0 ? null : d.pid());
      node.put("jdkVersion", d.runtimeVersion() == null ? null : d.runtimeVersion().strip());
      node.put("jdkFeature", d.feature() == 0 ? null : d.feature());
      node.put("takenAt", d.takenAt() == null ? null : d.takenAt().toString());
      node.put("complete", d.complete());
      node.put("virtualThreads", w.virtualThreads());
      node.put("platformThreads", w.platformThreads());
      node.put("unknownThreads", w.unknownThreads());
      node.put("carriersHeld", w.carriersHeld());
      ObjectNode can = node.putObject("tells");
      can.put("virtualMarked", d.facts().virtualMarked());
      can.put("states", d.facts().statesGiven());
      can.put("carriers", d.facts().carriersGiven());
      can.put("locks", d.facts().locksGiven());
      can.put("lockOwners", d.facts().lockOwnersGiven());
      can.put("mountedFrames", d.mountedFramesKnown());
      ArrayNode notes = node.putArray("notes");
      d.notes().forEach(notes::add);
    }
    ArrayNode groups = root.putArray("waits");
    for (WaitGroup g : a.last().groups()) {
      groups.add(group(g));
    }
    if (a.isSeries()) {
      ObjectNode series = root.putObject("series");
      series.put("spanNanos", a.series().span() == null ? null : a.series().span().toNanos());
      ArrayNode trends = series.putArray("waits");
      for (WaitSeries.Trend t : a.series().groups()) {
        ObjectNode node = trends.addObject();
        node.set("key", key(t.key()));
        ArrayNode sizes = node.putArray("threads");
        t.threads().forEach(sizes::add);
        node.put("persistent", t.persistent());
        node.put("arrived", t.arrived());
      }
    } else {
      root.putNull("series");
    }
    ArrayNode findings = root.putArray("findings");
    advice.findings().forEach(f -> findings.add(JsonReport.finding(f, a.names())));
    return root;
  }

  private static ObjectNode group(WaitGroup g) {
    ObjectNode node = JsonText.object();
    node.set("key", key(g.key()));
    node.put("threads", g.threads());
    node.put("virtualThreads", g.virtualThreads());
    node.put("platformThreads", g.platformThreads());
    node.put("unknownThreads", g.unknownThreads());
    node.put("carriersHeld", g.carriersHeld());
    node.put("operation", g.operation());
    node.put("objects", g.objects());
    node.set("entry", JsonReport.frame(g.entry()));
    node.set("via", JsonReport.frame(g.via()));
    node.set("site", JsonReport.frame(g.site()));
    ArrayNode sampled = node.putArray("sampled");
    for (WaitGroup.SampledThread t : g.sampled()) {
      sampled.addObject().put("tid", t.tid()).put("name", t.name());
    }
    node.set(
        "exampleStack",
        g.example() == null ? JsonText.array() : JsonReport.stack(g.example(), null));
    return node;
  }

  private static ObjectNode key(WaitKey k) {
    ObjectNode node = JsonText.object();
    node.put("kind", k.kind().id());
    node.put("resourceClass", k.resourceClass());
    node.put("resourceId", k.resourceId());
    node.put("entry", k.entry());
    node.put("via", k.via());
    node.put("site", k.site());
    return node;
  }

  // ---------------------------------------------------------------- words

  /** {@code 9812} as {@code 9,812}. */
  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String simple(Frame f, UnaryOperator<String> name) {
    return name.apply(simpleClass(Frame.stableClassName(f.className())) + "." + f.method());
  }

  private static String site(Frame f, UnaryOperator<String> name) {
    return simple(f, name) + (f.line() >= 0 ? ":" + f.line() : "");
  }

  /**
   * {@code java.util.concurrent.Semaphore$NonfairSync@6efb9} as {@code
   * Semaphore$NonfairSync@6efb9}.
   */
  private static String simpleClass(String name) {
    int at = name.indexOf('@');
    int dot = name.lastIndexOf('.', at < 0 ? name.length() : at);
    return name.substring(dot + 1);
  }
}
