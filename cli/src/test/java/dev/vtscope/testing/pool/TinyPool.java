package dev.vtscope.testing.pool;

/**
 * A pool of the old school, standing in for a library: borrowers wait in Object.wait() until an
 * object is returned.
 */
public final class TinyPool {

  private int free;

  public TinyPool(int size) {
    this.free = size;
  }

  public synchronized void borrow() throws InterruptedException {
    while (free == 0) {
      wait();
    }
    free--;
  }

  public synchronized void giveBack() {
    free++;
    notifyAll();
  }
}
