package dev.vtscope.waits;

import dev.vtscope.recording.Frame;

/**
 * What one thread of a dump waits for.
 *
 * @param key its group's key
 * @param entry the JDK frame the application called to wait, or null
 * @param via the library method the application called, which went on to wait, or null
 * @param site the application frame that led there, or null
 * @param operation for socket I/O: {@code read}, {@code accept}, {@code connect} or {@code write};
 *     else null
 * @param object the object waited for as the dump names it by identity, or null; in the key too,
 *     unless left out of it ({@link WaitGrouping})
 */
public record Wait(
    WaitKey key, Frame entry, Frame via, Frame site, String operation, String object) {

  /** The same wait, under {@code other}. */
  public Wait withKey(WaitKey other) {
    return new Wait(other, entry, via, site, operation, object);
  }
}
