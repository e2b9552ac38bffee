package dev.vtscope.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * JSON trees and their indented text, written by jackson-core's generator. The same text as a
 * databind mapper with indentation writes, without building the mapper, whose set-up was a
 * noticeable part of a small recording's analysis.
 */
final class JsonText {

  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonText() {}

  static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }

  /** Figures (strings, numbers, lists of them) as a JSON object. */
  static ObjectNode tree(java.util.Map<String, Object> figures) {
    ObjectNode node = object();
    figures.forEach((name, value) -> node.set(name, value(value)));
    return node;
  }

  private static JsonNode value(Object value) {
    // instanceof rather than a pattern switch, which makes a class at start-up (SwitchBootstraps)
    // that no class-data archive keeps
    if (value instanceof java.util.List<?> list) {
      ArrayNode array = array();
      list.forEach(v -> array.add(value(v)));
      return array;
    } else if (value instanceof Long l) {
      return JsonNodeFactory.instance.numberNode(l);
    } else if (value instanceof Integer i) {
      return JsonNodeFactory.instance.numberNode(i);
    } else if (value instanceof Double d) {
      return JsonNodeFactory.instance.numberNode(d);
    }
    return JsonNodeFactory.instance.textNode(value.toString());
  }

  /** The tree as indented JSON. */
  static String pretty(JsonNode tree) {
    StringWriter text = new StringWriter();
    try (JsonGenerator generator = FACTORY.createGenerator(text)) {
      generator.setPrettyPrinter(new DefaultPrettyPrinter());
      write(tree, generator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /**
   * The tree as compact JSON on one line: a line feed or any other control character inside a
   * string is escaped, so that the text is one line of a JSON Lines file.
   */
  static String compact(JsonNode tree) {
    StringWriter text = new StringWriter();
    try (JsonGenerator generator = FACTORY.createGenerator(text)) {
      write(tree, generator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /**
   * The tree as compact JSON that can sit inside an HTML {@code <script>} element: every {@code <},
   * {@code >} and {@code &} (only ever inside strings) is escaped, so no text of the recording can
   * close the element or start a comment.
   */
  static String forScript(JsonNode tree) {
    return compact(tree)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029");
  }

  private static void write(JsonNode node, JsonGenerator out) throws IOException {
    switch (node.getNodeType()) {
      case OBJECT -> {
        out.writeStartObject();
        for (var field : node.properties()) {
          out.writeFieldName(field.getKey());
          write(field.getValue(), out);
        }
        out.writeEndObject();
      }
      case ARRAY -> {
        out.writeStartArray();
        for (JsonNode item : node) {
          write(item, out);
        }
        out.writeEndArray();
      }
      case STRING -> out.writeString(node.textValue());
      case BOOLEAN -> out.writeBoolean(node.booleanValue());
      case NULL -> out.writeNull();
      case NUMBER -> {
        switch (node.numberType()) {
          case INT -> out.writeNumber(node.intValue());
          case LONG -> out.writeNumber(node.longValue());
          case BIG_INTEGER -> out.writeNumber(node.bigIntegerValue());
          case FLOAT -> out.writeNumber(node.floatValue());
          case DOUBLE -> out.writeNumber(node.doubleValue());
          case BIG_DECIMAL -> out.writeNumber(node.decimalValue());
        }
      }
      default ->
          throw new IllegalArgumentException(
              "a " + node.getNodeType() + " in a report's JSON tree");
    }
  }
}
