package dev.vtscope.advice;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * Virtual threads first use a class that their own class loader is slow to load (it reads a remote
 * repository, say): the JVM calls the loader from inside the VM, so every thread waiting for that
 * class holds its carrier, on every JDK release.
 */
public final class SlowClassLoading {

  private SlowClassLoading() {}

  /** Loaded by {@link SlowLoader}; its first {@code new Dependency()} makes the JVM load it. */
  public static final class Target implements Runnable {
    @Override
    public void run() {
      new Dependency().touch();
    }
  }

  /** The class that is slow to load. */
  public static final class Dependency {
    void touch() {}
  }

  /** Defines {@link Target} and {@link Dependency} itself, taking 50 ms for the latter. */
  static final class SlowLoader extends ClassLoader {
    SlowLoader(ClassLoader parent) {
      super(parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null && name.startsWith(SlowClassLoading.class.getName() + "$")) {
          if (name.endsWith("$Dependency")) {
            try {
              Thread.sleep(50);
            } catch (InterruptedException e) {
              throw new ClassNotFoundException(name, e);
            }
          }
          try (InputStream in =
              getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            byte[] bytes = in.readAllBytes();
            c = defineClass(name, bytes, 0, bytes.length);
          } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
          }
        }
        return c != null ? c : super.loadClass(name, resolve);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    Runnable target =
        (Runnable)
            new SlowLoader(SlowClassLoading.class.getClassLoader())
                .loadClass(Target.class.getName())
                .getDeclaredConstructor()
                .newInstance();
    CountDownLatch go = new CountDownLatch(1);
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < threads; i++) {
        executor.submit(
            () -> {
              go.await();
              target.run();
              return null;
            });
      }
      go.countDown();
    }
  }
}
