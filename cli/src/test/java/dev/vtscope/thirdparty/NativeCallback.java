package dev.vtscope.thirdparty;

import java.util.concurrent.Executors;

/**
 * Virtual threads block inside a Runnable that a JNI method calls back: the native method's frame
 * pins the carrier. The library is built from src/test/c/native_callback.c by the test.
 */
public final class NativeCallback {

  private NativeCallback() {}

  /** Runs {@code runnable} from native code. */
  static native void callBack(Runnable runnable);

  public static void main(String[] args) {
    System.load(args[0]);
    int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < tasks; i++) {
        executor.submit(NativeCallback::viaNativeCode);
      }
    }
  }

  static void viaNativeCode() {
    callBack(NativeCallback::waitForReply);
  }

  static void waitForReply() {
    try {
      Thread.sleep(25);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
