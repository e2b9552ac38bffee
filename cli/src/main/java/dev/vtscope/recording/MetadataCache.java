package dev.vtscope.recording;

import java.util.Arrays;

/**
 * The metadata of the chunk read last, parsed: the chunks of one JVM's recording usually carry the
 * same metadata, which is then parsed once rather than once a chunk. The strings and type tree of
 * the metadata record are compared byte for byte (its start time and id differ in every chunk), so
 * a chunk with other metadata gets its own. Safe to share between the threads that decode chunks.
 */
final class MetadataCache {

  private record Entry(byte[] bytes, JfrMetadata metadata) {}

  private volatile Entry last;

  /**
   * The metadata whose strings and type tree are {@code bytes[from, to)}, parsed by {@code parse}
   * when new.
   */
  JfrMetadata get(byte[] bytes, int from, int to, java.util.function.Supplier<JfrMetadata> parse) {
    Entry known = last;
    if (known != null && Arrays.equals(known.bytes, 0, known.bytes.length, bytes, from, to)) {
      return known.metadata;
    }
    JfrMetadata parsed = parse.get();
    last = new Entry(Arrays.copyOfRange(bytes, from, to), parsed);
    return parsed;
  }
}
