package dev.vtscope.thirdparty;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.util.concurrent.Executors;

/**
 * Virtual threads read a synchronous Caffeine cache whose loader blocks (a slow lookup): Caffeine
 * runs the loader inside ConcurrentHashMap.compute, which holds the map bin's monitor, so on JDK
 * 21-23 every load pins its carrier. The monitor is the JDK's; the code a user changes is the
 * cache's use. Args: the number of keys.
 */
public final class CaffeineSyncLoad {

  private CaffeineSyncLoad() {}

  public static void main(String[] args) {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    LoadingCache<Integer, String> profiles =
        Caffeine.newBuilder().maximumSize(1_000).build(CaffeineSyncLoad::loadProfile);
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < keys; i++) {
        int key = i;
        executor.submit(() -> profiles.get(key));
      }
    }
  }

  static String loadProfile(Integer key) {
    try {
      Thread.sleep(25); // a remote call
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "profile-" + key;
  }
}
