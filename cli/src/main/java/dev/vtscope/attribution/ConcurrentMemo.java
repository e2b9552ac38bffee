package dev.vtscope.attribution;

import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * A value worked out once per key and shared between threads, for the caches every core of a scan
 * asks for the same keys of. {@link ConcurrentMap#computeIfAbsent} locks the key's bin whenever the
 * key is not the bin's first entry, even when the value is there: looking first keeps the cores
 * from waiting on each other for keys already known.
 */
public final class ConcurrentMemo {

  private ConcurrentMemo() {}

  /** The value of {@code key}, made by {@code make} the first time it is asked for. */
  public static <K, V> V get(
      ConcurrentMap<K, V> memo, K key, Function<? super K, ? extends V> make) {
    V known = memo.get(key);
    return known != null ? known : memo.computeIfAbsent(key, make);
  }
}
