package dev.vtscope.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a one-chunk recording of pinned events whose stacks are deeper than any JVM records (JFR
 * caps its stack depth at 2048 frames): the valid file a JVM with a larger cap, or another writer,
 * would make. Its metadata declares the types a JVM declares for these events, with their fields in
 * a JVM's order (a class's package left out), so that the JDK's reader reads it as vtscope's does.
 *
 * <p>The stacks: a recursion of {@code depth} frames, {@code Deep.recurse} over and over under
 * {@code Deep.run}, ending in {@code Deep.pin} (two events) or {@code Deep.pinElsewhere} (one); and
 * a stack of half the depth, which shares its outer half with them.
 */
public final class DeepStackRecording {

  private static final long START_NANOS = 1_798_761_600_000_000_000L; // 2027-01-01T00:00Z
  private static final long START_TICKS = 1_000_000_000L;
  private static final long TICKS_PER_SECOND = 1_000_000_000L;

  // type ids: 0 and 1 are the metadata and checkpoint records
  private static final long BOOLEAN = 100;
  private static final long INT = 101;
  private static final long LONG = 102;
  private static final long STRING = 103;
  private static final long THREAD = 110;
  private static final long THREAD_GROUP = 111;
  private static final long STACK_TRACE = 112;
  private static final long STACK_FRAME = 113;
  private static final long METHOD = 114;
  private static final long CLASS = 115;
  private static final long CLASS_LOADER = 116;
  private static final long SYMBOL = 117;
  private static final long FRAME_TYPE = 118;
  private static final long TIMESTAMP = 119;
  private static final long TIMESPAN = 120;
  private static final long PINNED = 130;

  // constants
  private static final long THREAD_KEY = 1;
  private static final long CLASS_KEY = 1;
  private static final long FRAME_TYPE_KEY = 1;
  private static final String[] METHODS = {"run", "recurse", "pin", "pinElsewhere"};

  private DeepStackRecording() {}

  /** Writes the recording of stacks {@code depth} frames deep to {@code file}. */
  public static Path write(Path file, int depth) throws IOException {
    ByteArrayOutputStream chunk = new ByteArrayOutputStream();
    chunk.write(new byte[68]);

    // the events: pinned for 50, 40, 30 ms, each a millisecond after the last
    long[][] events = {{1, 50}, {2, 40}, {3, 30}};
    for (int i = 0; i < events.length; i++) {
      Out e = new Out();
      e.varLong(PINNED);
      e.varLong(START_TICKS + (i + 1) * 1_000_000L); // startTime
      e.varLong(events[i][1] * 1_000_000L); // duration
      e.varLong(THREAD_KEY); // eventThread
      e.varLong(events[i][0]); // stackTrace
      record(chunk, e);
    }

    long checkpointOffset = chunk.size();
    record(chunk, checkpoint(depth));
    long metadataOffset = chunk.size();
    record(chunk, metadata());

    byte[] bytes = chunk.toByteArray();
    ByteBuffer header = ByteBuffer.wrap(bytes);
    header.putInt(0, 0x464C5200); // "FLR\0"
    header.putShort(4, (short) 2);
    header.putShort(6, (short) 1);
    header.putLong(8, bytes.length);
    header.putLong(16, checkpointOffset);
    header.putLong(24, metadataOffset);
    header.putLong(32, START_NANOS);
    header.putLong(40, 1_000_000_000L); // a second
    header.putLong(48, START_TICKS);
    header.putLong(56, TICKS_PER_SECOND);
    bytes[64] = 0; // finished
    bytes[67] = 3; // compressed integers, final chunk
    Files.write(file, bytes);
    return file;
  }

  /** The constants: the thread, the three stacks and what their frames name. */
  private static Out checkpoint(int depth) {
    Out c = new Out();
    c.varLong(1); // a checkpoint
    c.varLong(START_TICKS);
    c.varLong(0); // duration
    c.varLong(0); // delta to the previous checkpoint: none
    c.u1(0); // not a flush
    c.varLong(8); // pools

    c.varLong(THREAD);
    c.varLong(1);
    c.varLong(THREAD_KEY);
    c.string("");
    c.varLong(0); // osThreadId
    c.string("");
    c.varLong(4242); // javaThreadId
    c.varLong(0); // group: none
    c.u1(1); // virtual

    c.varLong(STACK_TRACE);
    c.varLong(3);
    stack(c, 1, depth, 2);
    stack(c, 2, depth, 3);
    stack(c, 3, depth / 2, 2);

    c.varLong(METHOD);
    c.varLong(METHODS.length);
    for (int m = 0; m < METHODS.length; m++) {
      c.varLong(m + 1); // key
      c.varLong(CLASS_KEY);
      c.varLong(m + 1); // name: symbol m + 1
      c.varLong(10); // descriptor: symbol 10
      c.varLong(m == 0 ? 0x0001 : 0x0009); // public, or public static
      c.u1(0); // hidden
    }

    c.varLong(CLASS);
    c.varLong(1);
    c.varLong(CLASS_KEY);
    c.varLong(0); // classLoader: the boot loader
    c.varLong(11); // name: symbol 11
    c.varLong(0x0011); // public final
    c.u1(0); // hidden

    c.varLong(SYMBOL);
    c.varLong(METHODS.length + 2);
    for (int m = 0; m < METHODS.length; m++) {
      c.varLong(m + 1);
      c.string(METHODS[m]);
    }
    c.varLong(10);
    c.string("()V");
    c.varLong(11);
    c.string("deep/Deep");

    c.varLong(FRAME_TYPE);
    c.varLong(1);
    c.varLong(FRAME_TYPE_KEY);
    c.string("Interpreted");

    // pools of types no value here refers to, as a JVM writes them
    c.varLong(THREAD_GROUP);
    c.varLong(1);
    c.varLong(1);
    c.varLong(0);
    c.string("main");
    c.varLong(CLASS_LOADER);
    c.varLong(1);
    c.varLong(1);
    c.varLong(0);
    c.varLong(0);
    return c;
  }

  /** A stack of {@code depth} frames, innermost first, its innermost frame method {@code top}. */
  private static void stack(Out c, long key, int depth, int top) {
    c.varLong(key);
    c.u1(0); // not truncated
    c.varLong(depth);
    for (int i = 0; i < depth; i++) {
      int method = i == 0 ? top : i == depth - 1 ? 0 : 1;
      c.varLong(method + 1);
      c.varLong(i == 0 ? 7 : 12 + method); // lineNumber
      c.varLong(i == 0 ? 3 : 5); // bytecodeIndex
      c.varLong(FRAME_TYPE_KEY);
    }
  }

  /** The metadata: the types, each with its fields in the order values are written. */
  private static Out metadata() {
    Map<String, Integer> strings = new LinkedHashMap<>();
    Element classes = new Element("metadata");
    classes.add(type("boolean", BOOLEAN));
    classes.add(type("int", INT));
    classes.add(type("long", LONG));
    classes.add(type("java.lang.String", STRING));
    classes.add(
        type("java.lang.Thread", THREAD)
            .add(field("osName", STRING))
            .add(field("osThreadId", LONG))
            .add(field("javaName", STRING))
            .add(field("javaThreadId", LONG))
            .add(pooled("group", THREAD_GROUP))
            .add(field("virtual", BOOLEAN)));
    classes.add(
        type("jdk.types.ThreadGroup", THREAD_GROUP)
            .add(pooled("parent", THREAD_GROUP))
            .add(field("name", STRING)));
    classes.add(
        type("jdk.types.StackTrace", STACK_TRACE)
            .add(field("truncated", BOOLEAN))
            .add(field("frames", STACK_FRAME).attribute("dimension", "1")));
    classes.add(
        type("jdk.types.StackFrame", STACK_FRAME)
            .add(pooled("method", METHOD))
            .add(field("lineNumber", INT))
            .add(field("bytecodeIndex", INT))
            .add(pooled("type", FRAME_TYPE)));
    classes.add(
        type("jdk.types.Method", METHOD)
            .add(pooled("type", CLASS))
            .add(pooled("name", SYMBOL))
            .add(pooled("descriptor", SYMBOL))
            .add(field("modifiers", INT))
            .add(field("hidden", BOOLEAN)));
    classes.add(
        type("java.lang.Class", CLASS)
            .add(pooled("classLoader", CLASS_LOADER))
            .add(pooled("name", SYMBOL))
            .add(field("modifiers", INT))
            .add(field("hidden", BOOLEAN)));
    classes.add(
        type("jdk.types.ClassLoader", CLASS_LOADER)
            .add(pooled("type", CLASS))
            .add(pooled("name", SYMBOL)));
    classes.add(
        type("jdk.types.Symbol", SYMBOL)
            .attribute("simpleType", "true")
            .add(field("string", STRING)));
    classes.add(
        type("jdk.types.FrameType", FRAME_TYPE)
            .attribute("simpleType", "true")
            .add(field("description", STRING)));
    for (Object[] annotation :
        new Object[][] {{"jdk.jfr.Timestamp", TIMESTAMP}, {"jdk.jfr.Timespan", TIMESPAN}}) {
      classes.add(
          type((String) annotation[0], (Long) annotation[1])
              .attribute("superType", "java.lang.annotation.Annotation")
              .add(field("value", STRING)));
    }
    classes.add(
        type("jdk.VirtualThreadPinned", PINNED)
            .attribute("superType", "jdk.jfr.Event")
            .add(field("startTime", LONG).add(annotation(TIMESTAMP, "TICKS")))
            .add(field("duration", LONG).add(annotation(TIMESPAN, "TICKS")))
            .add(pooled("eventThread", THREAD))
            .add(pooled("stackTrace", STACK_TRACE)));
    Element root =
        new Element("root")
            .add(classes)
            .add(new Element("region").attribute("locale", "en_US").attribute("gmtOffset", "0"));
    root.collect(strings);

    Out m = new Out();
    m.varLong(0); // the metadata
    m.varLong(START_TICKS);
    m.varLong(0); // duration
    m.varLong(1); // metadata id
    m.varLong(strings.size());
    for (String s : strings.keySet()) {
      m.string(s);
    }
    root.write(m, strings);
    return m;
  }

  private static Element type(String name, long id) {
    return new Element("class").attribute("name", name).attribute("id", Long.toString(id));
  }

  private static Element field(String name, long type) {
    return new Element("field").attribute("name", name).attribute("class", Long.toString(type));
  }

  private static Element pooled(String name, long type) {
    return field(name, type).attribute("constantPool", "true");
  }

  private static Element annotation(long type, String value) {
    return new Element("annotation")
        .attribute("class", Long.toString(type))
        .attribute("value", value);
  }

  /** Writes {@code body} as a record: its size, the size included, then its bytes. */
  private static void record(ByteArrayOutputStream chunk, Out body) {
    byte[] bytes = body.toByteArray();
    int size = bytes.length + 1;
    while (size - bytes.length != Out.varLongSize(size)) {
      size = bytes.length + Out.varLongSize(size);
    }
    Out framed = new Out();
    framed.varLong(size);
    chunk.writeBytes(framed.toByteArray());
    chunk.writeBytes(bytes);
  }

  /** An element of the metadata's tree. */
  private static final class Element {
    final String name;
    final List<String> attributes = new ArrayList<>();
    final List<Element> children = new ArrayList<>();

    Element(String name) {
      this.name = name;
    }

    Element attribute(String key, String value) {
      attributes.add(key);
      attributes.add(value);
      return this;
    }

    Element add(Element child) {
      children.add(child);
      return this;
    }

    void collect(Map<String, Integer> strings) {
      strings.putIfAbsent(name, strings.size());
      for (String s : attributes) {
        strings.putIfAbsent(s, strings.size());
      }
      for (Element c : children) {
        c.collect(strings);
      }
    }

    void write(Out out, Map<String, Integer> strings) {
      out.varLong(strings.get(name));
      out.varLong(attributes.size() / 2);
      for (String s : attributes) {
        out.varLong(strings.get(s));
      }
      out.varLong(children.size());
      for (Element c : children) {
        c.write(out, strings);
      }
    }
  }

  /** Bytes in JFR's encodings: compressed integers and UTF-8 strings. */
  private static final class Out extends ByteArrayOutputStream {

    void u1(int b) {
      write(b);
    }

    void varLong(long value) {
      for (int i = 0; i < 8; i++) {
        if ((value & ~0x7FL) == 0) {
          write((int) value);
          return;
        }
        write((int) (value & 0x7F) | 0x80);
        value >>>= 7;
      }
      write((int) value);
    }

    void string(String s) {
      if (s.isEmpty()) {
        write(1);
        return;
      }
      byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
      write(3);
      varLong(bytes.length);
      writeBytes(bytes);
    }

    static int varLongSize(long value) {
      Out o = new Out();
      o.varLong(value);
      return o.size();
    }
  }
}
