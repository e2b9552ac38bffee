package dev.vtscope.recording;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to values that are never negative, without boxing: a
 * chunk's constant index (where each constant is), and its threads' Java ids.
 */
final class LongLongMap {

  private static final long EMPTY = Long.MIN_VALUE;

  private long[] keys = new long[16];
  private long[] values = filled(16);
  private int size;

  private static long[] filled(int n) {
    long[] a = new long[n];
    Arrays.fill(a, EMPTY);
    return a;
  }

  /** The value of {@code key}, or -1 when there is none. */
  long get(long key) {
    int mask = keys.length - 1;
    for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
      long v = values[i];
      if (v == EMPTY) {
        return -1;
      }
      if (keys[i] == key) {
        return v;
      }
    }
  }

  /** Sets {@code key} to {@code value} (not negative) unless it is set already. */
  void putIfAbsent(long key, long value) {
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
      if (values[i] == EMPTY) {
        keys[i] = key;
        values[i] = value;
        size++;
        return;
      }
      if (keys[i] == key) {
        return;
      }
    }
  }

  /** Makes room for {@code more} keys beyond those it has, so that adding them does not grow it. */
  void expect(int more) {
    long wanted = 2L * (size + (long) more);
    if (wanted <= keys.length) {
      return;
    }
    int capacity = keys.length;
    while (capacity < wanted && capacity < (1 << 30)) {
      capacity <<= 1;
    }
    resize(capacity);
  }

  int size() {
    return size;
  }

  private void grow() {
    resize(keys.length * 2);
  }

  private void resize(int capacity) {
    long[] oldKeys = keys;
    long[] oldValues = values;
    keys = new long[capacity];
    values = filled(capacity);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != EMPTY) {
        putIfAbsent(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int hash(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
