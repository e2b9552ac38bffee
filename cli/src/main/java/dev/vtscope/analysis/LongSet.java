package dev.vtscope.analysis;

import java.util.function.LongConsumer;

/**
 * A set of longs without boxing (open addressing, at most half full): about 16 bytes per element.
 * Counts distinct thread ids, of which a recording with a virtual thread per task has as many as
 * events.
 */
final class LongSet {

  private static final long FREE = 0;

  private long[] slots = new long[16];
  private boolean hasFree;
  private int size;

  /** Adds {@code value}; returns whether it was new. */
  boolean add(long value) {
    if (value == FREE) {
      boolean added = !hasFree;
      hasFree = true;
      size += added ? 1 : 0;
      return added;
    }
    if ((size + 1) * 2 > slots.length) {
      grow();
    }
    int mask = slots.length - 1;
    for (int i = hash(value) & mask; ; i = (i + 1) & mask) {
      long v = slots[i];
      if (v == FREE) {
        slots[i] = value;
        size++;
        return true;
      }
      if (v == value) {
        return false;
      }
    }
  }

  int size() {
    return size;
  }

  /** Calls {@code action} with every element, in no particular order. */
  void forEach(LongConsumer action) {
    if (hasFree) {
      action.accept(FREE);
    }
    for (long v : slots) {
      if (v != FREE) {
        action.accept(v);
      }
    }
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    size = hasFree ? 1 : 0;
    for (long v : old) {
      if (v != FREE) {
        add(v);
      }
    }
  }

  private static int hash(long value) {
    long h = value * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
