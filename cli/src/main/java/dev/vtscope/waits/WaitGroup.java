package dev.vtscope.waits;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.List;

/**
 * The threads of one dump that wait for the same thing at the same place.
 *
 * @param key what they wait for, where
 * @param virtualThreads how many of them are virtual threads
 * @param platformThreads how many are platform threads
 * @param unknownThreads how many the dump does not tell virtual or platform ({@link
 *     dev.vtscope.threaddump.DumpedThread#toldKind})
 * @param carriersHeld how many of the virtual ones hold their carrier while they wait ({@link
 *     CarrierHolding})
 * @param entry the JDK frame called to wait, of the first thread, or null
 * @param via the library method the application called, which went on to wait, of the first thread,
 *     or null
 * @param site the application frame that led there, of the first thread, or null
 * @param operation for socket I/O, the operation ({@code read}…), else null
 * @param objects how many objects its threads wait for when each waits for one of its own (the key
 *     then names none), else 0
 * @param sampled the first few threads, in the dump's order
 * @param example the stack of the first thread
 */
public record WaitGroup(
    WaitKey key,
    int virtualThreads,
    int platformThreads,
    int unknownThreads,
    int carriersHeld,
    Frame entry,
    Frame via,
    Frame site,
    String operation,
    int objects,
    List<SampledThread> sampled,
    RecordedStack example) {

  public WaitGroup {
    sampled = List.copyOf(sampled);
  }

  /**
   * One thread of a group, named.
   *
   * @param tid its id
   * @param name its name, as the dump wrote it (untrusted)
   */
  public record SampledThread(long tid, String name) {}

  /**
   * Whether these are the JVM's own threads: no Java frames, or the JDK's service threads, which
   * {@link WaitClassifier} gives one key of native code with no entry and no site.
   */
  public boolean jvmOwn() {
    return key.jvmOwn();
  }

  /**
   * Whether these are virtual threads mounted with frames the dump does not print (JDK 21's {@code
   * Thread.print}): {@link WaitClassifier} gives them running with no entry and no site. Each runs
   * or holds its carrier blocked, which the dump cannot tell.
   */
  public boolean mountedUnseen() {
    return key.kind() == WaitKind.RUNNING && key.entry() == null && key.site() == null;
  }

  /** How many threads wait so. */
  public int threads() {
    return virtualThreads + platformThreads + unknownThreads;
  }
}
