package dev.vtscope.recording;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The type descriptions of one chunk, read from its metadata event: every event type and every
 * value type with its fields, in the order their values are written. vtscope's reader uses them to
 * decode the few event types it needs and to skip every other value by its layout.
 */
final class JfrMetadata {

  /** How a value of a type is written, for the primitive types JFR knows. */
  enum Kind {
    BOOLEAN,
    BYTE,
    SHORT,
    CHAR,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    STRING,
    STRUCT
  }

  /** One type: an event type, a constant-pool type or a value nested in another. */
  static final class Type {
    final long id;
    final String name;
    final String superType;
    final boolean simple;
    final Kind kind;
    final List<Field> fields = new ArrayList<>();

    /**
     * How many compressed integers a value of this type is when it is nothing else (every field,
     * nested ones included, an integer or a constant reference, and none an array), else -1: a
     * stack frame is four. Set once the metadata is read. A boolean is not counted as one, though
     * JFR writes 0 or 1: a damaged byte of 0x80 or more would then run into the next value, and
     * every constant after it in its pool would be indexed at the wrong place without an error.
     */
    int integers = -1;

    /** {@link #fields} as an array: skipping a value walks them without an iterator. */
    Field[] fieldArray = new Field[0];

    Type(long id, String name, String superType, boolean simple) {
      this.id = id;
      this.name = name;
      this.superType = superType;
      this.simple = simple;
      this.kind = kindOf(name);
    }

    boolean isEvent() {
      return "jdk.jfr.Event".equals(superType);
    }
  }

  /** One field of a type. */
  static final class Field {
    final String name;
    final long typeId;
    final boolean array;
    final boolean constantPool;
    Type type;

    /** The unit of a {@code @Timestamp} field ("TICKS", "MILLISECONDS_SINCE_EPOCH"), or null. */
    String timestampUnit;

    /** While the metadata is read: the class and value of the field's annotation, or null. */
    private String annotationClass;

    private String annotationValue;

    Field(String name, long typeId, boolean array, boolean constantPool) {
      this.name = name;
      this.typeId = typeId;
      this.array = array;
      this.constantPool = constantPool;
    }
  }

  /** Type ids below this are looked up in an array: every record's type is looked up. */
  private static final int DENSE_IDS = 1 << 16;

  private final Map<Long, Type> types;
  private final Map<String, Type> byName;
  private final Type[] dense;

  private JfrMetadata(Map<Long, Type> types) {
    this.types = types;
    this.byName = new HashMap<>();
    long max = -1;
    for (Type t : types.values()) {
      byName.putIfAbsent(t.name, t);
      if (t.id >= 0 && t.id < DENSE_IDS) {
        max = Math.max(max, t.id);
      }
    }
    this.dense = new Type[(int) max + 1];
    for (Type t : types.values()) {
      if (t.id >= 0 && t.id < dense.length) {
        dense[(int) t.id] = t;
      }
    }
  }

  Type type(long id) {
    if (id >= 0 && id < DENSE_IDS) {
      return id < dense.length ? dense[(int) id] : null;
    }
    return types.get(id);
  }

  Type type(String name) {
    return byName.get(name);
  }

  Iterable<Type> types() {
    return types.values();
  }

  /** Reads the metadata event at the cursor, whose limit is the event's end. */
  static JfrMetadata read(ChunkBytes in) {
    int start = in.position();
    in.varInt(); // size
    long typeId = in.varLong();
    if (typeId != 0) {
      throw new JfrFormatException(
          "no metadata event where the chunk header says it is (type " + typeId + ")", start);
    }
    in.varLong(); // start time
    in.varLong(); // duration
    in.varLong(); // metadata id
    int stringCount = in.count(1);
    String[] strings = new String[stringCount];
    for (int i = 0; i < stringCount; i++) {
      strings[i] =
          in.string(
              (key, at) -> {
                throw new JfrFormatException("a metadata string refers to a constant pool", at);
              });
    }
    Element root = Element.read(in, strings, 0);
    Element metadata = root.child("metadata");
    if (metadata == null) {
      throw new JfrFormatException("the metadata has no type list", start);
    }
    Map<Long, Type> types = new HashMap<>();
    for (Element e : metadata.children) {
      if (!"class".equals(e.name)) {
        continue;
      }
      long id = e.longAttribute("id", start);
      String name = e.attribute("name");
      if (name == null) {
        throw new JfrFormatException("a metadata type without a name", start);
      }
      Type type = new Type(id, name, e.attribute("superType"), e.attribute("simpleType") != null);
      for (Element f : e.children) {
        if (!"field".equals(f.name)) {
          continue;
        }
        Field field =
            new Field(
                f.attribute("name"),
                f.longAttribute("class", start),
                f.attribute("dimension") != null && !"0".equals(f.attribute("dimension")),
                "true".equals(f.attribute("constantPool")));
        for (Element a : f.children) {
          if ("annotation".equals(a.name) && a.attribute("value") != null) {
            field.annotationClass = a.attribute("class");
            field.annotationValue = a.attribute("value");
          }
        }
        type.fields.add(field);
      }
      types.put(id, type);
    }
    // Resolve field types; a field of a type the metadata does not declare is damage.
    Long timestampId = null;
    for (Type t : types.values()) {
      if ("jdk.jfr.Timestamp".equals(t.name)) {
        timestampId = t.id;
      }
    }
    for (Type t : types.values()) {
      for (Field f : t.fields) {
        f.type = types.get(f.typeId);
        if (f.type == null) {
          throw new JfrFormatException(
              "field " + t.name + "." + f.name + " has an undeclared type " + f.typeId, start);
        }
        if (f.annotationValue != null
            && timestampId != null
            && String.valueOf(timestampId).equals(f.annotationClass)) {
          f.timestampUnit = f.annotationValue;
        }
        f.annotationClass = null;
        f.annotationValue = null;
      }
    }
    checkNesting(types, start);
    for (Type t : types.values()) {
      t.integers = integers(t);
      t.fieldArray = t.fields.toArray(new Field[0]);
    }
    return new JfrMetadata(types);
  }

  /** See {@link Type#integers}; the nesting is known to end. */
  private static int integers(Type t) {
    switch (t.kind) {
      case SHORT, CHAR, INT, LONG:
        return 1;
      case STRUCT:
        int sum = 0;
        for (Field f : t.fields) {
          int n = f.array ? -1 : f.constantPool ? 1 : integers(f.type);
          if (n < 0) {
            return -1;
          }
          sum += n;
        }
        return sum;
      default:
        return -1;
    }
  }

  /** A value type that contains itself inline would make every value of it endless. */
  private static void checkNesting(Map<Long, Type> types, int offset) {
    Map<Long, Integer> state = new HashMap<>();
    for (Type t : types.values()) {
      visit(t, state, offset);
    }
  }

  private static void visit(Type t, Map<Long, Integer> state, int offset) {
    Integer s = state.get(t.id);
    if (s != null) {
      if (s == 1) {
        throw new JfrFormatException("type " + t.name + " contains itself", offset);
      }
      return;
    }
    state.put(t.id, 1);
    for (Field f : t.fields) {
      if (!f.constantPool && f.type.kind == Kind.STRUCT) {
        visit(f.type, state, offset);
      }
    }
    state.put(t.id, 2);
  }

  private static Kind kindOf(String name) {
    return switch (name) {
      case "boolean" -> Kind.BOOLEAN;
      case "byte" -> Kind.BYTE;
      case "short" -> Kind.SHORT;
      case "char" -> Kind.CHAR;
      case "int" -> Kind.INT;
      case "long" -> Kind.LONG;
      case "float" -> Kind.FLOAT;
      case "double" -> Kind.DOUBLE;
      case "java.lang.String" -> Kind.STRING;
      default -> Kind.STRUCT;
    };
  }

  /** An element of the metadata's tree: a name, attributes and children. */
  private static final class Element {
    private static final int MAX_DEPTH = 32;

    private static final String[] NO_ATTRIBUTES = {};

    final String name;

    /** Keys and values, alternating: an element has a handful, looked up by a linear search. */
    private final String[] attributes;

    final List<Element> children;

    private Element(String name, String[] attributes, List<Element> children) {
      this.name = name;
      this.attributes = attributes;
      this.children = children;
    }

    static Element read(ChunkBytes in, String[] strings, int depth) {
      if (depth > MAX_DEPTH) {
        throw new JfrFormatException("the metadata nests too deep", in.position());
      }
      String name = string(in, strings);
      int count = in.count(2);
      String[] attributes = count == 0 ? NO_ATTRIBUTES : new String[count * 2];
      for (int i = 0; i < attributes.length; i++) {
        attributes[i] = string(in, strings);
      }
      int children = in.count(3);
      List<Element> list = children == 0 ? List.of() : new ArrayList<>(children);
      for (int i = 0; i < children; i++) {
        list.add(read(in, strings, depth + 1));
      }
      return new Element(name, attributes, list);
    }

    private static String string(ChunkBytes in, String[] strings) {
      int at = in.position();
      int index = in.varInt();
      if (index < 0 || index >= strings.length) {
        throw new JfrFormatException("a metadata string index out of range", at);
      }
      return strings[index];
    }

    Element child(String name) {
      for (Element c : children) {
        if (c.name.equals(name)) {
          return c;
        }
      }
      return null;
    }

    /** The value of the attribute {@code key}; the last one, if the key comes more than once. */
    String attribute(String key) {
      for (int i = attributes.length - 2; i >= 0; i -= 2) {
        if (key.equals(attributes[i])) {
          return attributes[i + 1];
        }
      }
      return null;
    }

    long longAttribute(String key, int offset) {
      String v = attribute(key);
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException | NullPointerException e) {
        throw new JfrFormatException(
            "a metadata attribute " + key + " that is not a number", offset);
      }
    }
  }
}
