package dev.vtscope.live;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.PrintedThreadDump;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
   * of vtscope's, which is deleted again.
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
      ThreadDump dump;
      try (InputStream in = Files.newInputStream(file)) {
        dump = parseJson(in);
      }
      return dump.withPrinted(jvm.execute("Thread.print"));
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
   * Reads the JSON of {@code Thread.dump_to_file -format=json}, one thread at a time (a JVM with
   * many virtual threads writes megabytes).
   */
  public static ThreadDump parseJson(InputStream in) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    List<DumpedThread> threads = new ArrayList<>();
    String version = null;
    try (JsonParser p = new JsonFactory(mapper).createParser(in)) {
      String field = null;
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.FIELD_NAME) {
          field = p.currentName();
        } else if (t == JsonToken.VALUE_STRING && "runtimeVersion".equals(field)) {
          version = p.getText();
        } else if (t == JsonToken.START_ARRAY && "threads".equals(field)) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            threads.add(thread(p.readValueAsTree()));
          }
        }
        if (t != JsonToken.FIELD_NAME) {
          field = null;
        }
      }
    }
    return new ThreadDump(version, threads);
  }

  private static DumpedThread thread(JsonNode t) {
    List<Frame> stack = new ArrayList<>();
    for (JsonNode frame : t.path("stack")) {
      Frame f = jsonFrame(frame.asText());
      if (f != null) {
        stack.add(f);
      }
    }
    return new DumpedThread(
        t.path("tid").asLong(-1),
        t.path("name").asText(""),
        t.has("virtual") ? t.path("virtual").asBoolean() : null,
        t.has("state") ? t.path("state").asText() : null,
        t.has("carrier") ? t.path("carrier").asLong(-1) : -1,
        stack);
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
    Map<Long, Long> carriers = new HashMap<>();
    Map<Long, List<Frame>> mounted = new HashMap<>();
    for (PrintedThreadDump.PrintedThread t : PrintedThreadDump.parse(printed).threads()) {
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
