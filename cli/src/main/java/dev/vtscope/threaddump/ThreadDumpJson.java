package dev.vtscope.threaddump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The JSON of {@code Thread.dump_to_file -format=json} (and {@code
 * HotSpotDiagnosticMXBean.dumpThreads}), read one thread object at a time: a JVM with 100,000
 * virtual threads writes some 100 MB, which is never held as a tree, and whose stacks are interned.
 *
 * <p>What each JDK writes, as read from real dumps: JDK 21 to 24 give each thread's {@code tid},
 * {@code name} and {@code stack}, nothing more (a virtual thread is told by its stack). JDK 25's
 * writer adds per thread the {@code time} it was sampled, {@code virtual}, {@code state}, {@code
 * parkBlocker}, {@code blockedOn} or {@code waitingOn}, {@code monitorsOwned} and, for a mounted
 * virtual thread, its {@code carrier}, written last, after the stack. Which writer wrote a dump is
 * told by the fields present, not by the version. Ids are strings, or numbers in other writers.
 *
 * <p>A file that ends early (the JDK's writer throws on a thread name with a control character, on
 * JDK 21 and 25 alike, and leaves the file cut where it was; a copy may be cut) reads as an
 * incomplete dump of the threads before the cut, with a note saying why: the caller falls back.
 */
public final class ThreadDumpJson {

  private static final JsonFactory JSON = new JsonFactory();

  private ThreadDumpJson() {}

  /** Reads every thread. */
  public static ThreadDump read(InputStream in) throws IOException {
    return read(in, t -> true);
  }

  /**
   * Reads the threads {@code keep} accepts, each decided when its object ends, so with all its
   * fields (JDK 25 writes a thread's {@code carrier} after its stack).
   *
   * @throws IOException when {@code in} cannot be read; JSON that breaks off or is malformed is no
   *     exception but an incomplete dump
   */
  public static ThreadDump read(InputStream in, Predicate<DumpedThread> keep) throws IOException {
    Reading r = new Reading(keep);
    try (JsonParser p = JSON.createParser(in)) {
      r.document(p);
    } catch (JsonProcessingException e) {
      r.cut(e);
    }
    return r.dump();
  }

  private static final class Reading {
    final Predicate<DumpedThread> keep;
    final InternedStacks stacks = new InternedStacks(Frames::ofStackTraceElement);
    final List<DumpedThread> threads = new ArrayList<>();
    final List<ThreadContainer> containers = new ArrayList<>();
    final List<String> stackBuffer = new ArrayList<>();
    long pid = -1;
    Instant takenAt;
    String version;
    boolean sawDump;
    boolean ended;
    int read;
    String problem;
    boolean virtualMarked;
    boolean statesGiven;
    boolean ownersGiven;

    Reading(Predicate<DumpedThread> keep) {
      this.keep = keep;
    }

    void document(JsonParser p) throws IOException {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        problem = "it is no JSON object";
        return;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (field.equals("threadDump") && value == JsonToken.START_OBJECT) {
          threadDump(p);
        } else {
          p.skipChildren();
        }
      }
      ended = true;
    }

    void threadDump(JsonParser p) throws IOException {
      sawDump = true;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "processId" -> pid = number(p, value);
          case "time" -> takenAt = instant(p, value);
          case "runtimeVersion" -> version = text(p, value);
          case "threadContainers" -> {
            if (value == JsonToken.START_ARRAY) {
              while (p.nextToken() == JsonToken.START_OBJECT) {
                container(p);
              }
            } else {
              p.skipChildren();
            }
          }
          default -> p.skipChildren();
        }
      }
    }

    void container(JsonParser p) throws IOException {
      String name = null;
      String parent = null;
      long owner = -1;
      long count = -1;
      int listed = 0;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "container" -> name = text(p, value);
          case "parent" -> parent = text(p, value);
          case "owner" -> owner = number(p, value);
          case "threadCount" -> count = number(p, value);
          case "threads" -> {
            if (value == JsonToken.START_ARRAY) {
              while (p.nextToken() == JsonToken.START_OBJECT) {
                DumpedThread t = thread(p, name);
                read++;
                listed++;
                if (keep.test(t)) {
                  threads.add(t);
                }
              }
            } else {
              p.skipChildren();
            }
          }
          default -> p.skipChildren();
        }
      }
      containers.add(new ThreadContainer(name, parent, owner, count, listed));
    }

    /** One thread object, the parser on its start. */
    DumpedThread thread(JsonParser p, String container) throws IOException {
      long tid = -1;
      String name = "";
      boolean virtual = false;
      String state = null;
      long carrier = -1;
      boolean stackGiven = false;
      Blocker monitor = null;
      Blocker parked = null;
      List<HeldMonitor> monitors = List.of();
      Instant sampledAt = null;
      stackBuffer.clear();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "tid" -> tid = number(p, value);
          case "name" -> name = value == JsonToken.VALUE_NULL ? "" : text(p, value);
          case "virtual" -> virtual = value == JsonToken.VALUE_TRUE;
          case "state" -> state = text(p, value);
          case "time" -> sampledAt = instant(p, value);
          case "carrier" -> carrier = number(p, value);
          case "blockedOn" -> monitor = ref(p, value, Blocker.MonitorEnter::new);
          case "waitingOn" -> monitor = ref(p, value, Blocker.MonitorWait::new);
          case "parkBlocker" -> parked = parkBlocker(p, value);
          case "monitorsOwned" -> monitors = monitorsOwned(p, value);
          case "stack" -> {
            if (value == JsonToken.START_ARRAY) {
              stackGiven = true;
              for (JsonToken t = p.nextToken();
                  t != null && t != JsonToken.END_ARRAY;
                  t = p.nextToken()) {
                if (t == JsonToken.VALUE_STRING) {
                  stackBuffer.add(p.getText());
                } else {
                  p.skipChildren();
                }
              }
            } else {
              p.skipChildren();
            }
          }
          default -> p.skipChildren();
        }
      }
      // the JDK 25 writer gives every thread its state and marks only virtual ones
      ThreadKind kind =
          virtual ? ThreadKind.VIRTUAL : state != null ? ThreadKind.PLATFORM : ThreadKind.UNKNOWN;
      virtualMarked |= kind != ThreadKind.UNKNOWN;
      statesGiven |= state != null;
      return new DumpedThread(
          tid,
          name,
          kind,
          state,
          carrier,
          -1,
          stackGiven ? stacks.of(stackBuffer) : null,
          monitor != null ? monitor : parked,
          monitors,
          List.of(),
          container,
          -1,
          -1,
          sampledAt);
    }

    private Blocker parkBlocker(JsonParser p, JsonToken value) throws IOException {
      if (value != JsonToken.START_OBJECT) {
        p.skipChildren();
        return null;
      }
      ObjectRef object = null;
      long owner = -1;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        switch (field) {
          case "object" -> {
            String text = text(p, v);
            object = text == null ? null : ObjectRef.identity(text);
          }
          case "owner" -> {
            owner = number(p, v);
            ownersGiven = true;
          }
          default -> p.skipChildren();
        }
      }
      return new Blocker.Parked(object, owner);
    }

    private static List<HeldMonitor> monitorsOwned(JsonParser p, JsonToken value)
        throws IOException {
      if (value != JsonToken.START_ARRAY) {
        p.skipChildren();
        return List.of();
      }
      List<HeldMonitor> held = new ArrayList<>();
      while (p.nextToken() == JsonToken.START_OBJECT) {
        int depth = -1;
        List<ObjectRef> locks = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken v = p.nextToken();
          if (field.equals("depth")) {
            depth = (int) Math.max(-1, Math.min(Integer.MAX_VALUE, number(p, v)));
          } else if (field.equals("locks") && v == JsonToken.START_ARRAY) {
            for (JsonToken t = p.nextToken();
                t != null && t != JsonToken.END_ARRAY;
                t = p.nextToken()) {
              if (t == JsonToken.VALUE_STRING) {
                locks.add(ObjectRef.identity(p.getText()));
              } else if (t == JsonToken.VALUE_NULL) {
                // a lock the JIT eliminated
                locks.add(null);
              } else {
                p.skipChildren();
              }
            }
          } else {
            p.skipChildren();
          }
        }
        for (ObjectRef lock : locks) {
          held.add(new HeldMonitor(depth, lock));
        }
      }
      return held;
    }

    private static Blocker ref(
        JsonParser p, JsonToken value, java.util.function.Function<ObjectRef, Blocker> kind)
        throws IOException {
      String text = text(p, value);
      return text == null ? null : kind.apply(ObjectRef.identity(text));
    }

    void cut(JsonProcessingException e) {
      String why = e.getOriginalMessage();
      why = why == null ? e.getClass().getSimpleName() : why.lines().findFirst().orElse("").strip();
      problem =
          "the JSON breaks off after "
              + read
              + (read == 1 ? " thread" : " threads")
              + " ("
              + why
              + ")";
    }

    ThreadDump dump() {
      boolean complete = problem == null && ended && sawDump;
      List<String> notes = new ArrayList<>();
      if (problem != null) {
        notes.add(problem);
      } else if (!sawDump) {
        notes.add("the JSON has no threadDump object");
      }
      DumpFacts facts =
          new DumpFacts(virtualMarked, statesGiven, statesGiven, statesGiven, ownersGiven, false);
      return new ThreadDump(
          DumpFormat.JSON,
          takenAt,
          pid,
          version,
          facts,
          threads,
          containers,
          List.of(),
          complete,
          notes);
    }
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

  private static String text(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return null;
  }

  private static Instant instant(JsonParser p, JsonToken value) throws IOException {
    String text = text(p, value);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
