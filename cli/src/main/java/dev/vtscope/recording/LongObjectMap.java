package dev.vtscope.recording;

/** An open-addressing map from long keys to non-null objects, without boxing the keys. */
final class LongObjectMap<V> {

  private long[] keys = new long[16];
  private Object[] values = new Object[16];
  private int size;

  /** The value of {@code key}, or null when there is none. */
  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
      Object v = values[i];
      if (v == null || keys[i] == key) {
        return (V) v;
      }
    }
  }

  /** Sets {@code key} to {@code value}, which must not be null. */
  void put(long key, V value) {
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
      if (values[i] == null) {
        keys[i] = key;
        values[i] = value;
        size++;
        return;
      }
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
    }
  }

  int size() {
    return size;
  }

  @SuppressWarnings("unchecked")
  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new Object[oldKeys.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != null) {
        put(oldKeys[i], (V) oldValues[i]);
      }
    }
  }

  private static int hash(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
