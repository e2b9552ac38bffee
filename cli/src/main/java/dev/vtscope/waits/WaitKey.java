package dev.vtscope.waits;

/**
 * What a group of threads wait for, at which place: the threads of one {@link WaitGroup} share it.
 * Parts a dump does not tell are null; the same situation has the same key on JDK 21 and 25 but for
 * {@code resourceId}, which only JDK 25's JSON and plain text name, and what JDK 21's JSON cannot
 * show at all (a monitor being entered looks like running code there).
 *
 * @param kind what kind of wait
 * @param resourceClass the class of what is waited for: the API the stack names ({@code
 *     java.util.concurrent.Semaphore}), else the object the dump names (a monitor's class), or null
 * @param resourceId the object waited for as the dump names it by identity ({@code
 *     java.util.concurrent.Semaphore$NonfairSync@6efb9a2c}), the same in every dump of one JVM;
 *     null when not named so ({@code Thread.print}'s addresses move with the garbage collector)
 * @param entry the JDK method the application called to wait ({@code
 *     java.util.concurrent.Semaphore.acquire}), without a line (JDK 21 writes none), or null
 * @param via the library method the application called, which went on to wait ({@code
 *     com.zaxxer.hikari.HikariDataSource.getConnection}), without a line, or null when the
 *     application called the JDK itself
 * @param site the application frame that led there, {@code Class.method:line} with a hidden class's
 *     address left out, or null when the stack has none
 */
public record WaitKey(
    WaitKind kind, String resourceClass, String resourceId, String entry, String via, String site) {

  /**
   * Whether these are the JVM's own threads: no Java frames, or the JDK's service threads, which
   * {@link WaitClassifier} gives one key of native code with no entry and no site.
   */
  public boolean jvmOwn() {
    return kind == WaitKind.NATIVE && entry == null && site == null;
  }

  /** The same place and kind, without the object: that of waits each for an object of its own. */
  public WaitKey withoutObject() {
    return new WaitKey(kind, resourceClass, null, entry, via, site);
  }
}
