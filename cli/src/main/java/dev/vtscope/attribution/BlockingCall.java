package dev.vtscope.attribution;

import dev.vtscope.recording.Frame;
import java.util.List;

/**
 * The JDK call a carrier blocked in when the scheduler started another carrier to compensate, read
 * from the stack of that start: the method that told the pool it was about to block ({@code
 * jdk.internal.misc.Blocker.begin}'s caller, or {@code ForkJoinPool.managedBlock}'s), what kind of
 * wait that is, and what the JDK was doing on the thread's behalf when it blocked. The first frame
 * outside the JDK says which code to look at; this says why it blocked, which that frame's call
 * often does not show (a socket read that blocked in file I/O, because the JDK loaded a resolver to
 * name the peer).
 *
 * @param method the blocking call, {@code Class.method}
 * @param kind what it waits for, as {@link BlockingCalls} tells the JDK's blocking methods apart;
 *     null when neither the table nor the call's package says
 * @param during the JDK operation the call was made in, {@code Class.method} (a host name lookup, a
 *     class initialiser), or null when the call was made directly
 * @param byRecorder whether the recording's own instrumentation made the call: a frame of JFR's
 *     event code on the way, or a host name looked up by a socket stream's read or write, which
 *     only JFR's socket events of JDK 21 do (they name the peer's host)
 */
public record BlockingCall(String method, BlockingKind kind, String during, boolean byRecorder) {

  /**
   * The blocking call on a compensating carrier's start stack, or null when the stack does not show
   * one.
   *
   * @param frames the start's stack, innermost first
   * @param caller index of the first frame outside the JDK, or -1 (the search ends there)
   */
  static BlockingCall find(List<Frame> frames, int caller) {
    int end = caller < 0 ? frames.size() : caller;
    int call = -1;
    boolean managed = false;
    for (int i = 0; i < end; i++) {
      Frame f = frames.get(i);
      if ("jdk.internal.misc.Blocker".equals(f.className())) {
        call = i + 1;
      } else if ("java.util.concurrent.ForkJoinPool".equals(f.className())
          && "managedBlock".equals(f.method())) {
        call = i + 1;
        managed = true;
      } else if (call >= 0) {
        break;
      }
    }
    if (call < 0 || call >= end) {
      return null;
    }
    Frame blocking = frames.get(call);
    String during = null;
    boolean byRecorder = false;
    for (int i = call + 1; i < end; i++) {
      Frame f = frames.get(i);
      String c = f.className();
      if (c.startsWith("jdk.jfr.") || c.startsWith("jdk.internal.event.")) {
        byRecorder = true;
      }
      if (during == null && (hostLookup(f) || "<clinit>".equals(f.method()))) {
        during = f.qualifiedMethod();
      }
      // who asked for the host name: the first frame past InetAddress's own
      if (hostLookup(f) && i + 1 < end) {
        int asker = i + 1;
        while (asker < end - 1 && "java.net.InetAddress".equals(frames.get(asker).className())) {
          asker++;
        }
        byRecorder |= socketStream(frames.get(asker));
      }
    }
    return new BlockingCall(
        blocking.qualifiedMethod(),
        managed ? BlockingKind.PARK : kindOf(blocking),
        during,
        byRecorder);
  }

  /**
   * The kind of {@code f}'s method: the table's, else by the JDK's internal classes a call ends in
   * (the JDK's file system and its name service), else null.
   */
  private static BlockingKind kindOf(Frame f) {
    BlockingKind listed = listed(f);
    if (listed != null) {
      return listed;
    }
    String c = f.className();
    if (c.startsWith("java.net.Inet") || c.startsWith("sun.net.dns.")) {
      return BlockingKind.HOST_LOOKUP;
    }
    if (c.startsWith("java.io.")
        || c.startsWith("sun.nio.fs.")
        || c.startsWith("sun.nio.ch.File")
        || c.startsWith("java.nio.file.")) {
      return BlockingKind.FILE;
    }
    return null;
  }

  /** The kind the table of the JDK's blocking methods gives {@code f}'s method, or null. */
  private static BlockingKind listed(Frame f) {
    return BlockingCalls.standard()
        .match(f.className(), f.method(), f.descriptor() == null ? "" : f.descriptor())
        .map(BlockingCalls.Blocking::kind)
        .orElse(null);
  }

  /** A frame of the JDK's API that looks a host name or address up, as the table lists them. */
  private static boolean hostLookup(Frame f) {
    return listed(f) == BlockingKind.HOST_LOOKUP;
  }

  /** A socket stream's or channel's read or write: what JFR's socket events instrument. */
  private static boolean socketStream(Frame f) {
    String c = f.className();
    return (c.startsWith("java.net.Socket$Socket") || c.startsWith("sun.nio.ch.SocketChannelImpl"))
        && (f.method().startsWith("read") || f.method().startsWith("write"));
  }
}
