package dev.vtscope.recording;

import dev.vtscope.recording.JfrMetadata.Field;
import dev.vtscope.recording.JfrMetadata.Type;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Decodes one chunk as {@link ChunkCompactor} keeps it: walks the kept event records by their
 * sizes, indexes every constant of the chunk's checkpoints (key to byte position, nothing decoded;
 * the checkpoints are read from the file a page at a time), then decodes only the events vtscope
 * uses and, of the constants, only what those events refer to (each decoded once per chunk, then
 * shared). Chunks are self-contained, so chunks decode independently and in parallel.
 *
 * <p>Damage never loops or reads outside the chunk: every record must have a positive size inside
 * the readable part, every count must fit in what is left of its record, and a deadline bounds the
 * whole. What cannot be decoded ends the chunk with a reason; references to constants that are not
 * there are counted and reported, never silently dropped, except the one JFR leaves out on purpose
 * (see {@link #danglingReferences()}).
 */
final class ChunkDecoder {

  private static final long METADATA = 0;
  private static final int DEADLINE_CHECK_EVERY = 1 << 16;

  /** The names of the event types this decoder reads; other events can be left out. */
  static final java.util.Set<String> WANTED_EVENTS =
      java.util.Arrays.stream(Wanted.values())
          .map(w -> w.eventName)
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  private enum Wanted {
    PINNED("jdk.VirtualThreadPinned"),
    SUBMIT_FAILED("jdk.VirtualThreadSubmitFailed"),
    MONITOR_ENTER("jdk.JavaMonitorEnter"),
    MONITOR_WAIT("jdk.JavaMonitorWait"),
    THREAD_START("jdk.ThreadStart"),
    EXECUTION_SAMPLE("jdk.ExecutionSample"),
    NATIVE_SAMPLE("jdk.NativeMethodSample"),
    FILE_READ("jdk.FileRead"),
    FILE_WRITE("jdk.FileWrite"),
    JVM("jdk.JVMInformation"),
    CPU("jdk.CPUInformation"),
    CONTAINER("jdk.ContainerConfiguration"),
    PROPERTY("jdk.InitialSystemProperty"),
    SETTING("jdk.ActiveSetting"),
    STRING_FLAG("jdk.StringFlag"),
    THREAD_DUMP("jdk.ThreadDump");

    final String eventName;

    Wanted(String eventName) {
      this.eventName = eventName;
    }
  }

  /**
   * What one chunk holds for vtscope.
   *
   * @param events the listener calls, in the chunk's order
   * @param failure why decoding stopped before the end of the chunk, or null
   * @param failureOffset where, from the chunk's start, or -1
   * @param danglingReferences references to constants the chunk does not hold
   * @param unknownTypes records of event types the metadata does not declare
   */
  record Result(
      List<Consumer<RecordingListener>> events,
      String failure,
      long failureOffset,
      long danglingReferences,
      long unknownTypes) {}

  private final ByteBuffer bytes;
  private final int readable;
  private final ChunkCompactor.Compacted kept;
  private final ByteBuffer page;

  /** The cursor over the constant pools, in the file; {@link #in} while a constant is read. */
  private ChunkBytes constants;

  private final long deadlineNanos;
  private final long startNanos;
  private final long startTicks;
  private final double ticksPerNano;
  private ChunkBytes in;
  private final JfrMetadata metadata;
  private final LongObjectMap<LongLongMap> pools = new LongObjectMap<>();

  /** Constants decoded so far, by type id and key; {@link #UNRESOLVED} stands for null. */
  private final LongObjectMap<LongObjectMap<Object>> resolved = new LongObjectMap<>();

  private static final Object UNRESOLVED = new Object();
  private final LongObjectMap<RecordedStack> stacks = new LongObjectMap<>();
  private long dangling;

  /** Keys of thread constants referred to but missing from the chunk. */
  private final Set<Long> missingThreads = new HashSet<>();

  /** Keys of the threads the chunk's jdk.ThreadStart events announce. */
  private final Set<Long> startedThreads = new HashSet<>();

  private long unknownTypes;

  /** Resolves the string constants that values refer to; made once, not at every string read. */
  private final ChunkBytes.StringPool poolStrings = this::poolString;

  /**
   * The pinned events' reasons and blocking operations, one instance per distinct text in a chunk:
   * they are written inline, a new string at every event, and the analysis counts them by text; the
   * same instance is hashed once and compares equal at a glance.
   */
  private final Map<String, String> pinnedTexts = new java.util.HashMap<>();

  /** The most distinct texts {@link #pinnedTexts} holds; past it, strings are left as read. */
  private static final int MAX_PINNED_TEXTS = 1 << 10;

  private Type stringType;
  private Type threadType;

  /**
   * @param kept the chunk as {@link ChunkCompactor} keeps it: its header (position 0), then its
   *     metadata and wanted events, and where its checkpoints are in the file
   * @param page a buffer to read the checkpoints through (free to overwrite)
   * @param deadlineNanos {@link System#nanoTime()} past which decoding gives up
   * @param frames frames already made, shared with the decoders of the recording's other chunks (a
   *     map that takes concurrent use when they decode in parallel)
   */
  ChunkDecoder(
      ChunkCompactor.Compacted kept,
      ByteBuffer page,
      long deadlineNanos,
      Map<Frame, Frame> frames) {
    this.kept = kept;
    this.page = page;
    this.frames = frames;
    this.metadata = kept.metadata();
    this.bytes = kept.bytes().order(ByteOrder.BIG_ENDIAN);
    this.readable = bytes.limit();
    this.deadlineNanos = deadlineNanos;
    this.startNanos = bytes.getLong(32);
    this.startTicks = bytes.getLong(48);
    long ticksPerSecond = bytes.getLong(56);
    this.ticksPerNano = ticksPerSecond / 1_000_000_000.0;
  }

  /**
   * The chunk's events, or why they stop early; failure offsets are from the start of the original
   * chunk.
   *
   * @param into when not null, takes each event as it is decoded, and the result lists none: a
   *     chunk's events then die young rather than all wait for its end (the serial collector
   *     promoted a large chunk's list and grew the old generation with it)
   * @throws IOException when the file cannot be read
   */
  Result decode(RecordingListener into) throws IOException {
    List<Consumer<RecordingListener>> events = new ArrayList<>();
    try {
      if (!(ticksPerNano > 0)) {
        return failed(events, "an impossible clock rate in the chunk header", 56);
      }
      in = new ChunkBytes(bytes.limit(readable));
      ChunkCompactor.Checkpoints checkpoints = kept.constants();
      constants =
          new ChunkBytes(
              checkpoints.channel(), checkpoints.chunkFileOffset(), checkpoints.readable(), page);
      stringType = metadata.type("java.lang.String");
      threadType = metadata.type("java.lang.Thread");
      wantedById = wantedByType();
      int[] positions = walk();
      indexCheckpoints(checkpoints);
      constants.pageBytes(RESOLVE_PAGE);
      for (int i = 0; i < positions.length && positions[i] >= 0; i++) {
        int at = positions[i];
        int end = recordEnd(at);
        in.position(at);
        in.limit(end);
        in.varInt();
        Type type = metadata.type(in.varLong());
        Consumer<RecordingListener> call = event(wantedById[(int) type.id], type);
        if (call != null && into != null) {
          call.accept(into);
        } else if (call != null) {
          events.add(call);
        }
        in.limit(readable);
      }
      return new Result(events, null, -1, danglingReferences(), unknownTypes);
    } catch (JfrFormatException e) {
      // positions in the constants are the original chunk's; those of the events are the kept ones
      long at = in == constants ? e.offset() : kept.originalOffset(e.offset());
      return failed(events, e.getMessage(), at);
    } catch (DeadlineException e) {
      return failed(events, "took too long to read (over the reader's time limit)", -1);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Bytes read at a time for a constant here and there, once the pools are indexed. */
  private static final int RESOLVE_PAGE = 64 << 10;

  /** Indexes the constants of the chunk's checkpoints, reading them in their order. */
  private void indexCheckpoints(ChunkCompactor.Checkpoints checkpoints) {
    ChunkBytes events = in;
    in = constants;
    for (int i = 0; i < checkpoints.count(); i++) {
      if (System.nanoTime() > deadlineNanos) {
        throw new DeadlineException();
      }
      int start = checkpoints.starts()[i];
      in.limit(Integer.MAX_VALUE);
      in.position(start);
      in.limit(start + checkpoints.sizes()[i]);
      in.varInt(); // the size, checked by the compactor
      in.varLong(); // the type: a checkpoint
      indexCheckpoint(start);
    }
    in.limit(Integer.MAX_VALUE);
    in = events;
  }

  private Result failed(List<Consumer<RecordingListener>> events, String why, long offset) {
    return new Result(events, why, offset, danglingReferences(), unknownTypes);
  }

  /**
   * The references to missing constants that point to damage. JDK 17 writes a jdk.ThreadStart event
   * for a thread that attaches through JNI, as the launcher's DestroyJavaVM thread does at every
   * normal exit, but never writes that thread's constant (JDK 21 does, and the JDK's own parser
   * reads the reference as null): a started thread that the chunk does not describe is that
   * omission, not damage.
   */
  private long danglingReferences() {
    long leftOut = missingThreads.stream().filter(startedThreads::contains).count();
    return dangling - leftOut;
  }

  /** The end of the record at {@code at}, checked to lie inside the readable part. */
  private int recordEnd(int at) {
    in.limit(readable);
    in.position(at);
    long size = in.varInt();
    if (size <= 0 || at + size > readable) {
      throw new JfrFormatException("a record of impossible size " + size, at);
    }
    return (int) (at + size);
  }

  /** {@link #wantedByType}, once the chunk's decoding has begun. */
  private Wanted[] wantedById = new Wanted[0];

  /** Which wanted event each type id is, indexed by id for the type ids small enough. */
  private Wanted[] wantedByType() {
    long max = 0;
    for (Type t : metadata.types()) {
      max = Math.max(max, t.id);
    }
    Wanted[] byId = new Wanted[(int) Math.min(max + 1, 1 << 20)];
    for (Wanted w : Wanted.values()) {
      Type t = metadata.type(w.eventName);
      if (t != null && t.id >= 0 && t.id < byId.length) {
        byId[(int) t.id] = w;
      }
    }
    return byId;
  }

  /**
   * Walks every kept record by its size: returns the positions of the wanted events, ended by -1.
   */
  private int[] walk() {
    int[] found = new int[64];
    int count = 0;
    int position = ChunkHeader.SIZE;
    int records = 0;
    while (position < readable) {
      if (++records % DEADLINE_CHECK_EVERY == 0 && System.nanoTime() > deadlineNanos) {
        throw new DeadlineException();
      }
      in.position(position);
      int size = in.varInt();
      if (size <= 0 || size > readable - position) {
        throw new JfrFormatException("a record of impossible size " + size, position);
      }
      long typeId = in.varLong();
      if (isRead(typeId)) {
        if (count == found.length) {
          found = java.util.Arrays.copyOf(found, count * 2);
        }
        found[count++] = position;
      } else if (typeId != METADATA && metadata.type(typeId) == null) {
        unknownTypes++;
      }
      position += size;
    }
    if (count == found.length) {
      found = java.util.Arrays.copyOf(found, count + 1);
    }
    found[count] = -1;
    return found;
  }

  /** Records where each constant of the checkpoint at the cursor starts. */
  private void indexCheckpoint(int start) {
    in.varLong(); // start time
    in.varLong(); // duration
    in.varLong(); // delta to the previous checkpoint: not followed, every record is walked
    in.u1(); // type flags
    int poolCount = in.count(2);
    for (int p = 0; p < poolCount; p++) {
      int at = in.position();
      long typeId = in.varLong();
      Type type = metadata.type(typeId);
      if (type == null) {
        throw new JfrFormatException("a constant pool of an undeclared type " + typeId, at);
      }
      int count = in.count(1);
      LongLongMap index = pools.get(typeId);
      if (index == null) {
        index = new LongLongMap();
        pools.put(typeId, index);
      }
      // grown once for the pool rather than doubling as it fills; to a bound, as the count of a
      // damaged pool may be anything the record's size allows
      index.expect(Math.min(count, 1 << 16));
      int threadIdAt = threadIdField(type);
      if (threadIdAt >= 0) {
        threadIds.expect(Math.min(count, 1 << 16));
      }
      for (int i = 0; i < count; i++) {
        long key = in.varLong();
        index.putIfAbsent(key, in.position());
        if (threadIdAt < 0) {
          skipValue(type, 0);
        } else {
          indexThread(type, key, threadIdAt);
        }
      }
    }
  }

  /**
   * By thread constant, its Java thread id, read as the pools are indexed: nearly every pinned
   * event is of a virtual thread of its own, whose constant is wanted for its id alone, and reading
   * the id at the event (from the checkpoints in the file, the fields before it skipped) was some
   * 5% of reading a gigabyte.
   */
  private final LongLongMap threadIds = new LongLongMap();

  /** Where a thread constant's Java id is among its fields, or -1 for any other type or shape. */
  private int threadIdField(Type type) {
    return type == threadType ? plainLong(type, F.JAVA_THREAD_ID) : -1;
  }

  /** Skips the thread constant at the cursor, keeping its Java id. */
  private void indexThread(Type type, long key, int idAt) {
    skipFields(type, 0, idAt);
    long id = in.varLong();
    // the first constant of a key wins, as in the index; a negative id (damage) is not kept, and
    // is then read from the constant the index names, as any field is
    if (id >= 0) {
      threadIds.putIfAbsent(key, id);
    }
    skipFields(type, idAt + 1, type.fieldArray.length);
  }

  /**
   * Where {@code field} is in {@code type} when it is a long written inline, as the JDK writes an
   * id; -1 when it is absent or of another shape.
   */
  private int plainLong(Type type, F field) {
    int at = layout(type)[field.ordinal()];
    if (at < 0) {
      return -1;
    }
    Field f = type.fieldArray[at];
    return f.array || f.constantPool || f.type.kind != JfrMetadata.Kind.LONG ? -1 : at;
  }

  /** Skips the fields {@code from} (inclusive) to {@code to} (exclusive) of a value of a type. */
  private void skipFields(Type type, int from, int to) {
    Field[] fields = type.fieldArray;
    for (int f = from; f < to; f++) {
      skipField(fields[f], 1);
    }
  }

  // ---- skipping values by their layout

  private void skipValue(Type type, int depth) {
    switch (type.kind) {
      case BOOLEAN, BYTE -> in.skip(1);
      case SHORT, CHAR -> in.varShort();
      case INT -> in.varInt();
      case LONG -> in.varLong();
      case FLOAT -> in.skip(4);
      case DOUBLE -> in.skip(8);
      case STRING -> in.skipString();
      case STRUCT -> {
        if (depth > 64) {
          throw new JfrFormatException("values nest too deep", in.position());
        }
        if (type.integers >= 0) {
          in.skipIntegers(type.integers);
          return;
        }
        for (Field f : type.fieldArray) {
          skipField(f, depth + 1);
        }
      }
    }
  }

  private void skipField(Field f, int depth) {
    if (f.array) {
      int n = in.count(0);
      int each = f.constantPool ? 1 : f.type.integers;
      if (each >= 0) {
        in.skipIntegers((long) n * each); // the stack frames of a stack trace, say
        return;
      }
      for (int i = 0; i < n; i++) {
        skipOne(f, depth);
      }
    } else {
      skipOne(f, depth);
    }
  }

  private void skipOne(Field f, int depth) {
    if (f.constantPool) {
      in.varLong();
    } else {
      skipValue(f.type, depth);
    }
  }

  /**
   * The fields the decoder reads, of every type it decodes. Where each is in a type is resolved
   * once per type and chunk ({@link #layout}), so that reading a field of a decoded value is an
   * array index rather than a lookup by name.
   */
  private enum F {
    START_TIME("startTime"),
    DURATION("duration"),
    EVENT_THREAD("eventThread"),
    STACK_TRACE("stackTrace"),
    PINNED_REASON("pinnedReason"),
    BLOCKING_OPERATION("blockingOperation"),
    CARRIER_THREAD("carrierThread"),
    JAVA_THREAD_ID("javaThreadId"),
    JAVA_NAME("javaName"),
    VIRTUAL("virtual"),
    GROUP("group"),
    NAME("name"),
    THREAD("thread"),
    SAMPLED_THREAD("sampledThread"),
    MONITOR_CLASS("monitorClass"),
    EXCEPTION_MESSAGE("exceptionMessage"),
    BYTES_READ("bytesRead"),
    BYTES_WRITTEN("bytesWritten"),
    FRAMES("frames"),
    TRUNCATED("truncated"),
    METHOD("method"),
    TYPE("type"),
    CLASS_LOADER("classLoader"),
    DESCRIPTOR("descriptor"),
    MODIFIERS("modifiers"),
    LINE_NUMBER("lineNumber"),
    BYTECODE_INDEX("bytecodeIndex"),
    JVM_START_TIME("jvmStartTime"),
    JVM_NAME("jvmName"),
    JVM_VERSION("jvmVersion"),
    PID("pid"),
    HW_THREADS("hwThreads"),
    CPU("cpu"),
    EFFECTIVE_CPU_COUNT("effectiveCpuCount"),
    KEY("key"),
    VALUE("value"),
    ID("id"),
    RESULT("result");

    final String fieldName;

    F(String fieldName) {
      this.fieldName = fieldName;
    }
  }

  /** By type id: where each of {@link F} is among the type's fields (-1: it has none). */
  private int[][] layouts = new int[0][];

  /** The positions of {@link F}'s fields in {@code type}, resolved on the type's first value. */
  private int[] layout(Type type) {
    long id = type.id;
    if (id >= 0 && id < layouts.length && layouts[(int) id] != null) {
      return layouts[(int) id];
    }
    F[] all = F.values();
    int[] positions = new int[all.length];
    java.util.Arrays.fill(positions, -1);
    List<Field> fields = type.fields;
    for (int i = fields.size() - 1; i >= 0; i--) { // the first of a name wins
      String name = fields.get(i).name;
      if (name != null) {
        for (F f : all) {
          if (f.fieldName.equals(name)) {
            positions[f.ordinal()] = i;
          }
        }
      }
    }
    if (id >= 0 && id < (1 << 20)) {
      if (id >= layouts.length) {
        layouts = java.util.Arrays.copyOf(layouts, (int) Math.max(id + 1, layouts.length * 2L));
      }
      layouts[(int) id] = positions;
    }
    return positions;
  }

  // ---- decoding values

  /** A reference to a constant, resolved only when read. */
  private record Ref(Type type, long key) {}

  /** A decoded value of a type with fields, and where the fields the decoder reads are in it. */
  private record Struct(Type type, int[] layout, Object[] values) {
    Object get(F field) {
      int i = layout[field.ordinal()];
      return i < 0 ? null : values[i];
    }

    boolean has(F field) {
      return layout[field.ordinal()] >= 0;
    }
  }

  private Object readValue(Type type, int depth) {
    switch (type.kind) {
      case BOOLEAN:
        return in.u1() != 0;
      case BYTE:
        return (long) (byte) in.u1();
      case SHORT:
      case CHAR:
        return (long) in.varShort();
      case INT:
        return (long) in.varInt();
      case LONG:
        return in.varLong();
      case FLOAT:
        return (double) in.f4();
      case DOUBLE:
        return in.f8();
      case STRING:
        return in.string(poolStrings);
      default:
        if (depth > 64) {
          throw new JfrFormatException("values nest too deep", in.position());
        }
        Object[] values = new Object[type.fields.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = readField(type.fields.get(i), depth + 1);
        }
        if (type.simple && values.length == 1) {
          return values[0];
        }
        return new Struct(type, layout(type), values);
    }
  }

  private Object readField(Field f, int depth) {
    if (f.array) {
      int n = in.count(0);
      Object[] items = new Object[n];
      for (int i = 0; i < n; i++) {
        items[i] = readOne(f, depth);
      }
      return items;
    }
    return readOne(f, depth);
  }

  private Object readOne(Field f, int depth) {
    if (f.constantPool) {
      return new Ref(f.type, in.varLong());
    }
    return readValue(f.type, depth);
  }

  /** The constant a reference names; null (and counted) when the chunk does not hold it. */
  private Object resolve(Object value) {
    if (!(value instanceof Ref ref)) {
      return value;
    }
    LongObjectMap<Object> cache = resolved.get(ref.type.id);
    if (cache == null) {
      cache = new LongObjectMap<>();
      resolved.put(ref.type.id, cache);
    }
    Object known = cache.get(ref.key);
    if (known != null) {
      return known == UNRESOLVED ? null : known;
    }
    LongLongMap index = pools.get(ref.type.id);
    int position = index == null ? -1 : (int) index.get(ref.key);
    Object result = null;
    if (position < 0) {
      if (ref.key != 0) {
        dangling++;
        if (ref.type.name.equals("java.lang.Thread")) {
          missingThreads.add(ref.key);
        }
      }
    } else {
      cache.put(ref.key, UNRESOLVED); // a constant that refers to itself resolves to null
      ChunkBytes outer = in;
      in = constants;
      int savedPosition = in.position();
      int savedLimit = in.limit(Integer.MAX_VALUE);
      in.position(position);
      result = readValue(ref.type, 0);
      in.limit(savedLimit);
      in.position(savedPosition);
      in = outer;
    }
    cache.put(ref.key, result == null ? UNRESOLVED : result);
    return result;
  }

  private String poolString(long key, int offset) {
    if (stringType == null) {
      throw new JfrFormatException("a string constant without a string pool", offset);
    }
    Object s = resolve(new Ref(stringType, key));
    return s instanceof String string ? string : null;
  }

  // ---- typed access

  private Struct struct(Object value) {
    return resolve(value) instanceof Struct s ? s : null;
  }

  private static Struct fields(Object value) {
    return value instanceof Struct s ? s : null;
  }

  private String string(Struct s, F field) {
    if (s == null) {
      return null;
    }
    Object v = resolve(s.get(field));
    return v instanceof String string ? string : null;
  }

  private long number(Struct s, F field, long absent) {
    Object v = s == null ? null : resolve(s.get(field));
    return v instanceof Long l ? l : absent;
  }

  private boolean bool(Struct s, F field) {
    Object v = s == null ? null : resolve(s.get(field));
    return v instanceof Boolean b && b;
  }

  private long nanos(long ticks) {
    return startNanos + (long) ((ticks - startTicks) / ticksPerNano);
  }

  private String pinnedText(String text) {
    if (text == null) {
      return null;
    }
    String known = pinnedTexts.get(text);
    if (known != null) {
      return known;
    }
    if (pinnedTexts.size() < MAX_PINNED_TEXTS) {
      pinnedTexts.put(text, text);
    }
    return text;
  }

  private long threadId(Struct event, F field) {
    if (!event.has(field)) {
      return -1;
    }
    Object thread = event.get(field);
    if (thread instanceof Ref ref) {
      return javaThreadId(ref.type, ref.key);
    }
    long id = field(thread, F.JAVA_THREAD_ID) instanceof Long l ? l : -1;
    return id == 0 ? -1 : id;
  }

  /**
   * The Java id of the thread constant {@code key} of {@code type}, or -1 (for 0 too: a thread with
   * no Java id): from {@link #threadIds}, where the pools' indexing put it, else read from the
   * constant.
   */
  private long javaThreadId(Type type, long key) {
    long id = type == threadType ? threadIds.get(key) : -1;
    if (id < 0) {
      id = field(new Ref(type, key), F.JAVA_THREAD_ID) instanceof Long l ? l : -1;
    }
    return id == 0 ? -1 : id;
  }

  /**
   * The field {@code field} of {@code value}, a decoded value or a reference to a constant,
   * resolved; null when there is no such value or field. A constant that is not decoded yet is not
   * decoded for this: the one field is read where it is in the pool, the fields before it skipped.
   * Most pinned events are each of a virtual thread of its own, whose constant is wanted for its id
   * alone, once: decoding it whole (names, group) and keeping it cost more than the rest of the
   * event.
   */
  private Object field(Object value, F field) {
    if (value instanceof Ref ref
        && ref.type.kind == JfrMetadata.Kind.STRUCT
        && !(ref.type.simple && ref.type.fields.size() == 1)) {
      LongObjectMap<Object> cache = resolved.get(ref.type.id);
      if (cache == null || cache.get(ref.key) == null) {
        LongLongMap index = pools.get(ref.type.id);
        int position = index == null ? -1 : (int) index.get(ref.key);
        if (position >= 0) {
          int i = layout(ref.type)[field.ordinal()];
          return i < 0 ? null : resolve(fieldAt(position, ref.type, i));
        }
      }
    }
    Struct s = struct(value);
    return s == null ? null : resolve(s.get(field));
  }

  /** The {@code index}-th field of the constant of {@code type} at {@code position}, undecoded. */
  private Object fieldAt(int position, Type type, int index) {
    ChunkBytes outer = in;
    in = constants;
    int savedPosition = in.position();
    int savedLimit = in.limit(Integer.MAX_VALUE);
    in.position(position);
    skipFields(type, 0, index);
    Object value = readField(type.fieldArray[index], 1);
    in.limit(savedLimit);
    in.position(savedPosition);
    in = outer;
    return value;
  }

  private String threadName(Struct event, F field) {
    return event.has(field) ? string(struct(event.get(field)), F.JAVA_NAME) : null;
  }

  private String className(Object classRef) {
    String name = string(struct(classRef), F.NAME);
    return name == null ? null : name.replace('/', '.');
  }

  private RecordedStack stack(Struct event) {
    return stack(event.get(F.STACK_TRACE));
  }

  /** The stack a stack trace reference names, made once a chunk. */
  private RecordedStack stack(Object value) {
    if (!(value instanceof Ref ref)) {
      return RecordedStack.EMPTY;
    }
    RecordedStack known = stacks.get(ref.key);
    if (known != null) {
      return known;
    }
    Struct trace = struct(ref);
    if (trace == null) {
      return RecordedStack.EMPTY;
    }
    Object[] recorded = resolve(trace.get(F.FRAMES)) instanceof Object[] a ? a : new Object[0];
    List<Frame> list = new ArrayList<>(recorded.length);
    for (Object f : recorded) {
      list.add(frame(fields(resolve(f))));
    }
    RecordedStack stack = new RecordedStack(list, bool(trace, F.TRUNCATED));
    stacks.put(ref.key, stack);
    return stack;
  }

  /** What a frame says of its method, the same for every frame of that method. */
  private record MethodFacts(
      String className,
      String name,
      String descriptor,
      int modifiers,
      Frame.ClassLoaderKind loader) {}

  /** By method constant: its facts, decoded once a chunk rather than once a frame. */
  private final Map<Struct, MethodFacts> methodFacts = new IdentityHashMap<>();

  /**
   * Frames already made: the stacks of a recording share most of their frames, and a recording with
   * many distinct stacks holds each frame once rather than once a stack. The reader shares one map
   * between the chunks it decodes, so that every chunk's stacks point to the same frame objects.
   */
  private final Map<Frame, Frame> frames;

  /** The most frames the shared map takes; frames past it are kept per stack. */
  static final int MAX_SHARED_FRAMES = 1 << 20;

  private Frame frame(Struct f) {
    Object methodRef = f == null ? null : f.get(F.METHOD);
    Struct method = struct(methodRef);
    MethodFacts facts = method == null ? UNKNOWN_METHOD : methodFacts.get(method);
    if (facts == null) {
      Struct type = struct(method.get(F.TYPE));
      Struct loader = type == null ? null : struct(type.get(F.CLASS_LOADER));
      String typeName = type == null ? null : string(type, F.NAME);
      facts =
          new MethodFacts(
              type == null || typeName == null ? "<unknown>" : typeName.replace('/', '.'),
              nonNull(string(method, F.NAME), "<unknown>"),
              string(method, F.DESCRIPTOR),
              (int) number(method, F.MODIFIERS, 0),
              RecordedFacts.loaderKind(type != null, loader != null, string(loader, F.NAME)));
      methodFacts.put(method, facts);
    }
    Frame frame =
        new Frame(
            facts.className(),
            facts.name(),
            facts.descriptor(),
            (int) number(f, F.LINE_NUMBER, -1),
            (int) number(f, F.BYTECODE_INDEX, -1),
            f == null ? null : string(f, F.TYPE),
            facts.modifiers(),
            facts.loader());
    Frame known = frames.get(frame);
    if (known != null) {
      return known;
    }
    if (frames.size() < MAX_SHARED_FRAMES) {
      known = frames.putIfAbsent(frame, frame);
    }
    return known == null ? frame : known;
  }

  private static final MethodFacts UNKNOWN_METHOD =
      new MethodFacts(
          "<unknown>", "<unknown>", "", 0, RecordedFacts.loaderKind(false, false, null));

  private static String nonNull(String s, String otherwise) {
    return s == null ? otherwise : s;
  }

  // ---- events

  /** The pinned events' reasons and blocking operations read last, by their bytes. */
  private final ChunkBytes.Texts reasons = new ChunkBytes.Texts();

  private final ChunkBytes.Texts blockingOperations = new ChunkBytes.Texts();

  /** The fields of a pinned event this reads, in {@link #pinned}'s order. */
  private static final F[] PINNED_FIELDS = {
    F.START_TIME,
    F.DURATION,
    F.EVENT_THREAD,
    F.STACK_TRACE,
    F.PINNED_REASON,
    F.BLOCKING_OPERATION,
    F.CARRIER_THREAD
  };

  /** By type id: {@link #pinnedFields}, or {@link #GENERIC} when the type is read generically. */
  private final LongObjectMap<int[]> pinnedFields = new LongObjectMap<>();

  private static final int[] GENERIC = {};

  /**
   * Where each of {@link #PINNED_FIELDS} is in a pinned event type (-1: absent), when each present
   * one is of the kind the JDK writes (times as longs, threads and stacks as constants, texts as
   * strings); null for a type of another shape, which is decoded generically.
   */
  private int[] pinnedFields(Type type) {
    int[] known = pinnedFields.get(type.id);
    if (known != null) {
      return known == GENERIC ? null : known;
    }
    int[] layout = layout(type);
    int[] at = new int[PINNED_FIELDS.length];
    boolean plain = layout[F.START_TIME.ordinal()] >= 0;
    for (int i = 0; i < PINNED_FIELDS.length; i++) {
      at[i] = layout[PINNED_FIELDS[i].ordinal()];
      if (at[i] >= 0) {
        Field f = type.fields.get(at[i]);
        boolean reference = i == 2 || i == 3 || i == 6;
        JfrMetadata.Kind kind =
            i < 2 ? JfrMetadata.Kind.LONG : i < 4 || i == 6 ? null : JfrMetadata.Kind.STRING;
        plain &= !f.array && f.constantPool == reference && (kind == null || f.type.kind == kind);
      }
    }
    pinnedFields.put(type.id, plain ? at : GENERIC);
    return plain ? at : null;
  }

  /**
   * A pinned event read field by field into primitives, without a decoded value per field: the
   * events a recording holds most of, read as {@link #event} reads them otherwise.
   */
  private PinnedEvent pinned(Type type, int[] at) {
    long startTicks = 0;
    long durationTicks = 0;
    long thread = -1;
    long stack = -1;
    long carrier = -1;
    String reason = null;
    String blocking = null;
    List<Field> fields = type.fields;
    for (int i = 0; i < fields.size(); i++) {
      if (i == at[0]) {
        startTicks = in.varLong();
      } else if (i == at[1]) {
        durationTicks = in.varLong();
      } else if (i == at[2]) {
        thread = in.varLong();
      } else if (i == at[3]) {
        stack = in.varLong();
      } else if (i == at[4]) {
        reason = in.string(poolStrings, reasons);
      } else if (i == at[5]) {
        blocking = in.string(poolStrings, blockingOperations);
      } else if (i == at[6]) {
        carrier = in.varLong();
      } else {
        skipField(fields.get(i), 1);
      }
    }
    long start = nanos(startTicks);
    long threadId = at[2] >= 0 ? javaThreadId(fields.get(at[2]).type, thread) : -1;
    return new PinnedEvent(
        start,
        at[1] >= 0 ? nanos(startTicks + durationTicks) - start : 0,
        threadId,
        at[3] >= 0 ? stack(new Ref(fields.get(at[3]).type, stack)) : RecordedStack.EMPTY,
        pinnedText(reason),
        pinnedText(blocking),
        at[6] >= 0 ? carrierName(fields.get(at[6]).type, carrier) : null);
  }

  /**
   * By carrier thread constant, its name, or {@link #UNRESOLVED}: a chunk's pins share a few
   * carriers, whose names were resolved again at every pin (the thread, then its name's string).
   */
  private final LongObjectMap<Object> carrierNames = new LongObjectMap<>();

  private String carrierName(Type type, long key) {
    Object known = carrierNames.get(key);
    if (known == null) {
      String name = string(struct(new Ref(type, key)), F.JAVA_NAME);
      known = name == null ? UNRESOLVED : name;
      carrierNames.put(key, known);
    }
    return known == UNRESOLVED ? null : (String) known;
  }

  /**
   * Whether the setting at the cursor is of a type this reader decodes, read from its id alone; the
   * cursor is left where it was. The JVM writes every setting of every event type at the start of
   * each chunk (some 440 a chunk under the {@code profile} settings), and those of types never
   * decoded say nothing the analysis uses: decoding each with its two strings was some 5% of
   * reading a gigabyte of 235 chunks. A setting whose id is not where the JDK writes it is decoded.
   */
  private boolean settingOfATypeRead(Type type) {
    int index = plainLong(type, F.ID);
    if (index < 0) {
      return true;
    }
    int at = in.position();
    skipFields(type, 0, index);
    long target = in.varLong();
    in.position(at);
    return isRead(target);
  }

  /** Whether the type {@code id} is one this reader decodes. */
  private boolean isRead(long id) {
    return id >= 0 && id < wantedById.length && wantedById[(int) id] != null;
  }

  private Consumer<RecordingListener> event(Wanted wanted, Type type) {
    if (wanted == Wanted.PINNED) {
      int[] fields = pinnedFields(type);
      if (fields != null) {
        PinnedEvent p = pinned(type, fields);
        return l -> l.pinned(p);
      }
    }
    if (wanted == Wanted.SETTING && !settingOfATypeRead(type)) {
      return null;
    }
    Struct e = (Struct) readValue(type, 0);
    long startTicks = number(e, F.START_TIME, 0);
    long start = nanos(startTicks);
    long duration = e.has(F.DURATION) ? nanos(startTicks + number(e, F.DURATION, 0)) - start : 0;
    switch (wanted) {
      case PINNED:
        {
          PinnedEvent p =
              new PinnedEvent(
                  start,
                  duration,
                  threadId(e, F.EVENT_THREAD),
                  stack(e),
                  pinnedText(string(e, F.PINNED_REASON)),
                  pinnedText(string(e, F.BLOCKING_OPERATION)),
                  threadName(e, F.CARRIER_THREAD));
          return l -> l.pinned(p);
        }
      case SUBMIT_FAILED:
        {
          long id =
              e.has(F.JAVA_THREAD_ID)
                  ? number(e, F.JAVA_THREAD_ID, 0)
                  : threadId(e, F.EVENT_THREAD);
          SubmitFailedEvent s =
              new SubmitFailedEvent(start, id, string(e, F.EXCEPTION_MESSAGE), stack(e));
          return l -> l.submitFailed(s);
        }
      case MONITOR_ENTER:
      case MONITOR_WAIT:
        {
          Struct thread = struct(e.get(F.EVENT_THREAD));
          if (thread == null || !bool(thread, F.VIRTUAL)) {
            return null;
          }
          long id = number(thread, F.JAVA_THREAD_ID, -1);
          MonitorEvent m =
              new MonitorEvent(
                  wanted == Wanted.MONITOR_ENTER ? MonitorEvent.Kind.ENTER : MonitorEvent.Kind.WAIT,
                  start,
                  duration,
                  id == 0 ? -1 : id,
                  e.has(F.MONITOR_CLASS) ? className(e.get(F.MONITOR_CLASS)) : null,
                  stack(e));
          return l -> l.monitor(m);
        }
      case THREAD_START:
        {
          if (e.get(F.THREAD) instanceof Ref started) {
            startedThreads.add(started.key);
          }
          Struct thread = e.has(F.THREAD) ? struct(e.get(F.THREAD)) : null;
          if (thread == null || bool(thread, F.VIRTUAL)) {
            return null;
          }
          Struct group = struct(thread.get(F.GROUP));
          ThreadStartEvent t =
              new ThreadStartEvent(
                  start,
                  string(thread, F.JAVA_NAME),
                  group == null ? null : string(group, F.NAME),
                  stack(e));
          return l -> l.threadStart(t);
        }
      case EXECUTION_SAMPLE:
      case NATIVE_SAMPLE:
        {
          Struct thread = struct(e.get(F.SAMPLED_THREAD));
          if (thread == null || !bool(thread, F.VIRTUAL)) {
            return null;
          }
          CpuSampleEvent s =
              new CpuSampleEvent(
                  start,
                  number(thread, F.JAVA_THREAD_ID, -1),
                  wanted == Wanted.NATIVE_SAMPLE,
                  stack(e));
          return l -> l.cpuSample(s);
        }
      case FILE_READ:
      case FILE_WRITE:
        {
          Struct thread = struct(e.get(F.EVENT_THREAD));
          if (thread == null || !bool(thread, F.VIRTUAL)) {
            return null;
          }
          boolean write = wanted == Wanted.FILE_WRITE;
          F bytesField = write ? F.BYTES_WRITTEN : F.BYTES_READ;
          FileIoEvent f =
              new FileIoEvent(
                  start,
                  duration,
                  number(thread, F.JAVA_THREAD_ID, -1),
                  write,
                  e.has(bytesField) ? number(e, bytesField, -1) : -1,
                  stack(e));
          return l -> l.fileIo(f);
        }
      case JVM:
        {
          long started = 0;
          int field = e.layout()[F.JVM_START_TIME.ordinal()];
          if (field >= 0 && resolve(e.values[field]) instanceof Long value) {
            String unit = type.fields.get(field).timestampUnit;
            started = "TICKS".equals(unit) ? nanos(value) : Math.multiplyExact(value, 1_000_000L);
          }
          JvmFacts facts =
              RecordedFacts.jvm(
                  string(e, F.JVM_NAME), string(e, F.JVM_VERSION), started, number(e, F.PID, -1));
          return l -> l.jvm(facts);
        }
      case CPU:
        {
          CpuFacts cpu = new CpuFacts((int) number(e, F.HW_THREADS, 0), 0, string(e, F.CPU));
          return l -> l.cpu(cpu);
        }
      case CONTAINER:
        {
          if (!e.has(F.EFFECTIVE_CPU_COUNT)) {
            return null;
          }
          CpuFacts cpu = new CpuFacts(0, (int) number(e, F.EFFECTIVE_CPU_COUNT, 0), null);
          return l -> l.cpu(cpu);
        }
      case PROPERTY:
        {
          String key = string(e, F.KEY);
          String value = string(e, F.VALUE);
          return l -> l.systemProperty(key, value);
        }
      case SETTING:
        {
          Type target = metadata.type(number(e, F.ID, -1));
          if (target == null || !target.isEvent() || !isRead(target.id)) {
            return null;
          }
          EventSetting s = new EventSetting(target.name, string(e, F.NAME), string(e, F.VALUE));
          return l -> l.setting(s);
        }
      case STRING_FLAG:
        {
          if (!"FlightRecorderOptions".equals(string(e, F.NAME))) {
            return null;
          }
          int depth = RecordedFacts.stackDepth(string(e, F.VALUE));
          return l -> l.stackDepth(depth);
        }
      case THREAD_DUMP:
        {
          String text = string(e, F.RESULT);
          if (text == null) {
            return null;
          }
          ThreadDumpEvent dump = new ThreadDumpEvent(start, text);
          return l -> l.threadDump(dump);
        }
      default:
        return null;
    }
  }
}
