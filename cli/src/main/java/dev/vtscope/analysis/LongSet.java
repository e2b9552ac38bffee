package dev.vtscope.analysis;

import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * A set of thread ids, for exact counts of distinct threads. A program that starts a virtual thread
 * per task has as many as events; the JVM numbers threads mostly consecutively, which a compressed
 * bitmap stores in a few bits each.
 */
final class LongSet {

  private final Roaring64Bitmap ids = new Roaring64Bitmap();

  void add(long value) {
    ids.addLong(value);
  }

  int size() {
    return (int) Math.min(Integer.MAX_VALUE, ids.getLongCardinality());
  }

  /** Adds every element of {@code other}, each plus {@code offset}. */
  void addAll(LongSet other, long offset) {
    if (offset == 0) {
      ids.or(other.ids);
    } else {
      other.ids.forEach(id -> ids.addLong(id + offset));
    }
  }
}
