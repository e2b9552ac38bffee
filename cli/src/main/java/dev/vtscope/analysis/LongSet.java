package dev.vtscope.analysis;

import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * A set of thread ids, for exact counts of distinct threads. A program that starts a virtual thread
 * per task has as many as events; the JVM numbers threads mostly consecutively, which a compressed
 * bitmap stores in a few bits each. Ids below 2^32, which is all of them in practice, go to a
 * 32-bit bitmap: adding one in ascending order finds its container at once, where the 64-bit bitmap
 * searches a tree for every id (some 4% of reading a gigabyte of pins, each of a thread of its
 * own).
 */
final class LongSet {

  private static final long LOW = 1L << 32;

  private final RoaringBitmap low = new RoaringBitmap();
  private Roaring64Bitmap high;

  void add(long value) {
    if (value >= 0 && value < LOW) {
      low.add((int) value);
    } else {
      if (high == null) {
        high = new Roaring64Bitmap();
      }
      high.addLong(value);
    }
  }

  int size() {
    long size = low.getLongCardinality() + (high == null ? 0 : high.getLongCardinality());
    return (int) Math.min(Integer.MAX_VALUE, size);
  }

  /** Adds every element of {@code other}, each plus {@code offset}. */
  void addAll(LongSet other, long offset) {
    if (offset == 0) {
      low.or(other.low);
      if (other.high != null) {
        if (high == null) {
          high = new Roaring64Bitmap();
        }
        high.or(other.high);
      }
    } else {
      other.low.forEach((int id) -> add(Integer.toUnsignedLong(id) + offset));
      if (other.high != null) {
        other.high.forEach(id -> add(id + offset));
      }
    }
  }
}
