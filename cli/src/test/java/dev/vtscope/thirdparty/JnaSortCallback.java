package dev.vtscope.thirdparty;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.concurrent.Executors;

/**
 * Virtual threads sort with libc's qsort through JNA, with a Java comparator that blocks briefly.
 * While the comparator runs, JNA's native call (Native.invoke...) is on the stack below it, so each
 * block pins the carrier on every JDK (jdk.VirtualThreadPinned, finding native-pinning; on JDK 24+
 * with the reason "Native or VM frame on stack"). Args: the number of sorts.
 */
public final class JnaSortCallback {

  private JnaSortCallback() {}

  /** The part of libc this program calls. */
  public interface LibC extends Library {
    LibC INSTANCE = Native.load("c", LibC.class);

    void qsort(Pointer base, long count, long size, Comparator comparator);

    /** qsort's comparison function. */
    interface Comparator extends Callback {
      int invoke(Pointer a, Pointer b);
    }
  }

  public static void main(String[] args) {
    int sorts = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    // One sort on the main thread first: JNA's classes and libc are loaded and initialised there,
    // not by racing virtual threads (which would pin on class initialisation instead).
    sortPrices();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < sorts; i++) {
        executor.submit(JnaSortCallback::sortPrices);
      }
    }
  }

  static void sortPrices() {
    int[] prices = {30, 10, 20};
    try (Memory memory = new Memory((long) Integer.BYTES * prices.length)) {
      memory.write(0, prices, 0, prices.length);
      LibC.INSTANCE.qsort(memory, prices.length, Integer.BYTES, JnaSortCallback::compareSlowly);
    }
  }

  static int compareSlowly(Pointer a, Pointer b) {
    try {
      Thread.sleep(5); // a price lookup
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Integer.compare(a.getInt(0), b.getInt(0));
  }
}
