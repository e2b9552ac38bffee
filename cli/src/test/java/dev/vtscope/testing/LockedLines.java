package dev.vtscope.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/**
 * A library's line reader, for the attribution tests' class files: it holds a synchronized block on
 * a lock of its own around a JDK reader's read, which on JDK 21 synchronizes again on the lock it
 * was given and blocks there.
 */
public final class LockedLines {

  private final Object lock;
  private final BufferedReader reader;

  public LockedLines(Reader in, Object lock) {
    this.lock = lock;
    this.reader = new BufferedReader(in);
  }

  public int next() throws IOException {
    synchronized (lock) {
      return reader.read();
    }
  }
}
