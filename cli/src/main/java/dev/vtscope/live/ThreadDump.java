package dev.vtscope.live;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.PrintedThreadDump;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A running JVM's threads at one moment, as its thread dump gives them: {@code Thread.dump_to_file
 * -format=json} (every thread, virtual ones too), completed by {@code Thread.print} (the platform
 * threads, as {@code jstack} prints them).
 *
 * <p>What each JDK writes, as read from real dumps: on JDK 21 the JSON has each thread's id, name
 * and stack, nothing more; virtual threads are told by their stack, which ends in {@code
 * java.lang.VirtualThread.run}, and {@code Thread.print} names the virtual thread each carrier
 * carries ({@code Carrying virtual thread #18}). On JDK 25 the JSON also says {@code "virtual":
 * true}, the thread's {@code state}, and, for a mounted virtual thread, its {@code carrier}; {@code
 * Thread.print} prints the mounted virtual thread's stack under its carrier ({@code Mounted virtual
 * thread #30}) with the JDK's hidden frames, which the JSON leaves out: the upcall and downcall
 * stubs of a foreign-function call, for one.
 *
 * @param runtimeVersion the JVM's {@code java.runtime.version}, e.g. {@code 25.0.3+9-LTS}
 * @param threads every thread the dump lists
 */
public record ThreadDump(String runtimeVersion, List<DumpedThread> threads) {

  public ThreadDump {
    threads = List.copyOf(threads);
  }

  /**
   * One thread.
   *
   * @param tid its thread id
   * @param name its name
   * @param virtual whether it is a virtual thread, or null when the dump does not say (JDK 21)
   * @param state its {@link Thread.State} name, or null when the dump does not say (JDK 21)
   * @param carrier the id of the carrier it is mounted on, or -1 when not mounted or not known
   * @param stack its frames, innermost first, read as a recording's ({@link
   *     PrintedThreadDump#frame})
   */
  public record DumpedThread(
      long tid, String name, Boolean virtual, String state, long carrier, List<Frame> stack) {
    public DumpedThread {
      stack = List.copyOf(stack);
    }
  }

  /**
   * Takes a thread dump of the JVM with this pid: the target writes the JSON to a temporary folder
   * of vtscope's, which is deleted again. The dump keeps the platform threads and the virtual
   * threads mounted on a carrier ({@link #parse}).
   */
  public static ThreadDump take(long pid) throws LiveException {
    Path folder;
    try {
      folder = Files.createTempDirectory("vtscope-threads-");
    } catch (IOException e) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "cannot make a temporary folder for pid " + pid + "'s thread dump: " + e.getMessage(),
          e);
    }
    Path file = folder.resolve("threads.json");
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      // Thread.print first: it names the virtual threads mounted now, which the JSON's reading
      // keeps; a JVM's other virtual threads, 100,000 of them for some, hold no carrier
      String printed = jvm.execute("Thread.print");
      String path = file.toAbsolutePath().toString();
      String answer =
          jvm.execute(
              "Thread.dump_to_file -format=json "
                  + (path.contains(" ") ? "\"" + path + "\"" : path));
      if (!Files.isRegularFile(file)) {
        throw new LiveException(
            LiveException.Reason.COMMAND_FAILED,
            "pid "
                + pid
                + " wrote no thread dump: "
                + answer.strip().lines().findFirst().orElse(""));
      }
      try (InputStream in = Files.newInputStream(file)) {
        return parse(in, printed);
      }
    } catch (IOException e) {
      throw new LiveException(
          LiveException.Reason.COMMAND_FAILED,
          "pid " + pid + "'s thread dump cannot be read: " + e.getMessage(),
          e);
    } finally {
      try {
        Files.deleteIfExists(file);
        Files.deleteIfExists(folder);
      } catch (IOException e) {
        // a temporary folder left behind: nothing else depends on it
      }
    }
  }

  /**
   * Reads a dump from the JSON of {@code Thread.dump_to_file -format=json} and the text of {@code
   * Thread.print} taken just before it, keeping the platform threads and the virtual threads
   * mounted on a carrier (as either says). A virtual thread that is not mounted holds no carrier,
   * and its stack is not read: a JVM with 100,000 parked virtual threads writes some 50 MB of JSON,
   * nearly all of it theirs. A virtual thread that mounted between the two commands is kept on JDK
   * 24+, whose JSON names its carrier, and left out on JDK 21 until the next dump.
   */
  public static ThreadDump parse(InputStream json, String printed) throws IOException {
    PrintedThreadDump print = PrintedThreadDump.parse(printed);
    Set<Long> carried = new HashSet<>();
    for (PrintedThreadDump.PrintedThread t : print.threads()) {
      if (t.isCarrier()) {
        carried.add(t.carrying());
      }
    }
    return parseJson(json, carried).withPrinted(print);
  }

  /**
   * Reads the JSON of {@code Thread.dump_to_file -format=json}, one thread at a time (a JVM with
   * many virtual threads writes megabytes), every thread.
   */
  public static ThreadDump parseJson(InputStream in) throws IOException {
    return parseJson(in, null);
  }

  /**
   * Reads the JSON, keeping every platform thread and the virtual threads that are mounted: whose
   * carrier the JSON names (JDK 24+) or whose id is in {@code carried}; or every thread when {@code
   * carried} is null.
   */
  private static ThreadDump parseJson(InputStream in, Set<Long> carried) throws IOException {
    List<DumpedThread> threads = new ArrayList<>();
    String version = null;
    try (JsonParser p = JSON.createParser(in)) {
      String field = null;
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.FIELD_NAME) {
          field = p.currentName();
        } else if (t == JsonToken.VALUE_STRING && "runtimeVersion".equals(field)) {
          version = p.getText();
        } else if (t == JsonToken.START_ARRAY && "threads".equals(field)) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            DumpedThread thread = thread(p, carried);
            if (thread != null) {
              threads.add(thread);
            }
          }
        }
        if (t != JsonToken.FIELD_NAME) {
          field = null;
        }
      }
    }
    return new ThreadDump(version, threads);
  }

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * One thread object, the parser on its start; null when it is a virtual thread that is not
   * mounted and {@code carried} says which are. The JDK writes a thread's {@code virtual} and
   * {@code carrier} before its {@code stack}, whose frames are then made only for threads kept.
   */
  private static DumpedThread thread(JsonParser p, Set<Long> carried) throws IOException {
    long tid = -1;
    String name = "";
    Boolean virtual = null;
    String state = null;
    long carrier = -1;
    List<String> stack = List.of();
    boolean unmounted = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "tid" -> tid = number(p, value);
        case "name" -> name = value == JsonToken.VALUE_NULL ? "" : p.getText();
        case "virtual" -> virtual = value == JsonToken.VALUE_TRUE;
        case "state" -> state = value == JsonToken.VALUE_NULL ? null : p.getText();
        case "carrier" -> carrier = number(p, value);
        case "stack" -> {
          unmounted =
              carried != null
                  && Boolean.TRUE.equals(virtual)
                  && carrier < 0
                  && !carried.contains(tid);
          if (unmounted || value != JsonToken.START_ARRAY) {
            p.skipChildren();
          } else {
            stack = new ArrayList<>();
            while (p.nextToken() == JsonToken.VALUE_STRING) {
              stack.add(p.getText());
            }
          }
        }
        default -> p.skipChildren();
      }
    }
    if (carried != null && !carried.contains(tid) && carrier < 0) {
      // JDK 21 says no more of a virtual thread than that its stack ends in VirtualThread.run
      boolean isVirtual =
          virtual != null
              ? virtual
              : !stack.isEmpty()
                  && stack.get(stack.size() - 1).contains("java.lang.VirtualThread.run(");
      if (unmounted || isVirtual) {
        return null;
      }
    }
    List<Frame> frames = new ArrayList<>(stack.size());
    for (String text : stack) {
      Frame f = jsonFrame(text);
      if (f != null) {
        frames.add(f);
      }
    }
    return new DumpedThread(tid, name, virtual, state, carrier, frames);
  }

  /** A number the JSON writes as text ({@code "tid": "22"}) or as a number; -1 when neither. */
  private static long number(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NUMBER_INT) {
      return p.getLongValue();
    }
    if (value == JsonToken.VALUE_STRING) {
      try {
        return Long.parseLong(p.getText().strip());
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    p.skipChildren();
    return -1;
  }

  /**
   * A frame as {@link StackTraceElement#toString()} writes it: {@code
   * [loader/][module[@version]/]class.method(source)}.
   */
  static Frame jsonFrame(String text) {
    int open = text.lastIndexOf('(');
    if (open < 0 || !text.endsWith(")")) {
      return null;
    }
    String source = text.substring(open + 1, text.length() - 1);
    String qualified = text.substring(0, open);
    String module = null;
    int slash = qualified.lastIndexOf('/');
    if (slash >= 0) {
      String prefix = qualified.substring(0, slash);
      qualified = qualified.substring(slash + 1);
      // "loader//class" has an empty module; "loader/module/class" and "module/class" name one
      String last = prefix.substring(prefix.lastIndexOf('/') + 1);
      int at = last.indexOf('@');
      module = last.isEmpty() ? null : at < 0 ? last : last.substring(0, at);
    }
    return PrintedThreadDump.frame(module, qualified, source);
  }

  /**
   * This dump completed by {@code Thread.print}'s text: the carrier of each virtual thread it
   * names, and the full stack of each mounted virtual thread it prints.
   */
  public ThreadDump withPrinted(String printed) {
    return withPrinted(PrintedThreadDump.parse(printed));
  }

  private ThreadDump withPrinted(PrintedThreadDump printed) {
    Map<Long, Long> carriers = new HashMap<>();
    Map<Long, List<Frame>> mounted = new HashMap<>();
    for (PrintedThreadDump.PrintedThread t : printed.threads()) {
      if (t.isCarrier()) {
        carriers.put(t.carrying(), t.tid());
        if (t.mountedStack() != null && !t.mountedStack().isEmpty()) {
          mounted.put(t.carrying(), t.mountedStack());
        }
      }
    }
    List<DumpedThread> completed = new ArrayList<>(threads.size());
    for (DumpedThread t : threads) {
      Long carrier = carriers.get(t.tid());
      List<Frame> stack = mounted.get(t.tid());
      completed.add(
          carrier == null && stack == null
              ? t
              : new DumpedThread(
                  t.tid(),
                  t.name(),
                  t.virtual() == null && carrier != null ? Boolean.TRUE : t.virtual(),
                  t.state(),
                  t.carrier() >= 0 || carrier == null ? t.carrier() : carrier,
                  stack != null ? stack : t.stack()));
    }
    return new ThreadDump(runtimeVersion, completed);
  }
}
